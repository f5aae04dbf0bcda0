package io.argus.collector.security;

import io.argus.collector.net.PeerAddress;
import io.argus.collector.RateLimitedLog;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Right after Netty's {@code SslHandler}: a connection whose TLS handshake fails (a plain-text client, a client
 * that does not trust the certificate, a handshake timeout) is logged in one WARN line (at most one per listener
 * every 10 s), counted in {@code argus.collector.tls.handshake.failures{listener}} and closed. The exception that
 * follows the failure is stopped here, so the stages behind it never see a connection that did not get through.
 */
@ChannelHandler.Sharable
final class TlsHandshakeHandler extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = Logger.getLogger(TlsHandshakeHandler.class.getName());

    private final String listener;
    private final Counter failures;
    private final RateLimitedLog warnings = new RateLimitedLog(LOG, 10_000_000_000L);

    TlsHandshakeHandler(String listener, MeterRegistry meters) {
        this.listener = listener;
        this.failures = Counter.builder("argus.collector.tls.handshake.failures")
                .description("Connections closed because their TLS handshake failed (e.g. plain text), by listener")
                .tag("listener", listener)
                .register(meters);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof SslHandshakeCompletionEvent done && !done.isSuccess()) {
            failures.increment();
            warnings.warn(listener, "TLS handshake with " + PeerAddress.of(ctx.channel()) + " on the " + listener
                    + " port failed: " + reason(done.cause()));
            ctx.close();
            return;
        }
        super.userEventTriggered(ctx, evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) throws Exception {
        SslHandler ssl = ctx.pipeline().get(SslHandler.class);
        if (ssl != null && ssl.handshakeFuture().isDone() && !ssl.handshakeFuture().isSuccess()) {
            LOG.log(Level.FINE, "after the failed TLS handshake with " + PeerAddress.of(ctx.channel()), cause);
            ctx.close();
            return;
        }
        super.exceptionCaught(ctx, cause);
    }

    private static String reason(Throwable cause) {
        String name = cause.getClass().getSimpleName();
        if ("NotSslRecordException".equals(name)) {
            return "not a TLS client (plain text on a TLS port)";
        }
        String message = String.valueOf(cause.getMessage()).replace('\n', ' ').replace('\r', ' ');
        return name + ": " + (message.length() > 200 ? message.substring(0, 200) + "..." : message);
    }

}
