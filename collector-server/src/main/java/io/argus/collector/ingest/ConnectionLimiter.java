package io.argus.collector.ingest;

import io.argus.collector.RateLimitedLog;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.AttributeKey;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;

/**
 * First stage of every agent connection, ahead of TLS: closes it at once, before a byte is read, when the collector
 * already holds {@code maxTotal} agent connections or {@code maxPerAddress} from the same remote address. One line
 * at WARN per reason every 10 s and a count per reason in {@code argus.collector.connections.refused}. Shared by all
 * connections of a listener.
 */
@ChannelHandler.Sharable
final class ConnectionLimiter extends ChannelInboundHandlerAdapter {
    private static final RateLimitedLog LOG =
            new RateLimitedLog(Logger.getLogger(ConnectionLimiter.class.getName()), TimeUnit.SECONDS.toNanos(10));
    /** Set on a connection this limiter counted: its remote address (or the channel itself without one). */
    private static final AttributeKey<Object> COUNTED = AttributeKey.valueOf("argus.connectionCounted");

    private final int maxTotal;
    private final int maxPerAddress;
    private final IngestMetrics metrics;
    private final AtomicInteger total = new AtomicInteger();
    /** Open connections per remote address; an address leaves the map with its last connection. */
    private final ConcurrentHashMap<InetAddress, Integer> perAddress = new ConcurrentHashMap<>();

    ConnectionLimiter(int maxTotal, int maxPerAddress, IngestMetrics metrics) {
        this.maxTotal = maxTotal;
        this.maxPerAddress = maxPerAddress;
        this.metrics = metrics;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        if (total.incrementAndGet() > maxTotal) {
            total.decrementAndGet();
            refuse(ctx, "too_many_connections", maxTotal + " agent connections are open, the limit"
                    + " (--max-connections)");
            return;
        }
        InetAddress address = ctx.channel().remoteAddress() instanceof InetSocketAddress inet ? inet.getAddress()
                : null;
        if (address != null) {
            boolean[] over = new boolean[1];
            perAddress.compute(address, (a, n) -> {
                int next = (n == null ? 0 : n) + 1;
                over[0] = next > maxPerAddress;
                return over[0] ? n : next;
            });
            if (over[0]) {
                total.decrementAndGet();
                refuse(ctx, "too_many_from_address", maxPerAddress + " agent connections from "
                        + address.getHostAddress() + " are open, the limit (--max-connections-per-address)");
                return;
            }
        }
        ctx.channel().attr(COUNTED).set(address != null ? address : ctx.channel());
        super.channelActive(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        Object counted = ctx.channel().attr(COUNTED).getAndSet(null);
        if (counted != null) {
            total.decrementAndGet();
            if (counted instanceof InetAddress address) {
                perAddress.computeIfPresent(address, (a, n) -> n <= 1 ? null : n - 1);
            }
        }
        super.channelInactive(ctx);
    }

    /** Open connections this limiter counts. */
    int open() {
        return total.get();
    }

    private void refuse(ChannelHandlerContext ctx, String reason, String detail) {
        ctx.channel().config().setAutoRead(false);
        ctx.channel().attr(IngestAttributes.REJECTED).set(Boolean.TRUE);
        metrics.refused(reason);
        LOG.warn(reason, "refusing agent connection from " + IngestAttributes.remote(ctx.channel()) + ": " + detail);
        ctx.close();
    }
}
