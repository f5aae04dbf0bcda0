package io.argus.collector.otlp;

import io.argus.collector.ingest.AgentRegistry;
import io.argus.collector.ingest.ClockWindow;
import io.argus.collector.storage.IngestSink;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import com.google.protobuf.MessageLite;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * Maps each decoded export request, hands its batches to the store, records its senders in the
 * {@link AgentRegistry} and answers 200 with the export response (partial success when some spans or points were
 * refused). When the store's queue is full the connection stops reading and the batches not yet taken are retried
 * every {@value #RETRY_MILLIS} ms, so the client waits for its answer (back-pressure); after
 * {@code --otlp-store-wait} the rest is dropped and the answer is 503, which OTLP clients retry.
 * One instance per connection.
 */
final class OtlpRouter extends ChannelInboundHandlerAdapter {
    static final long RETRY_MILLIS = 5;

    private final IngestSink sink;
    private final AgentRegistry registry;
    private final MetricMapper metricMapper;
    private final OtlpMetrics metrics;
    private final ClockWindow window;
    private final PendingOffers waiting;
    /** Pipelined requests that came in while an earlier one waited for the store: answered in order. */
    private final ArrayDeque<Object> deferred = new ArrayDeque<>();
    private MessageLite pendingAnswer;

    OtlpRouter(IngestSink sink, AgentRegistry registry, MetricMapper metricMapper, OtlpMetrics metrics,
               ClockWindow window, long giveUpMillis) {
        this.window = window;
        this.waiting = new PendingOffers(giveUpMillis);
        this.sink = sink;
        this.registry = registry;
        this.metricMapper = metricMapper;
        this.metrics = metrics;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (pendingAnswer != null) {
            deferred.addLast(msg);
            return;
        }
        if (!sink.accepting()) {
            // never answer 200 for data that cannot be handed on; OTLP clients retry a 503
            ctx.fireExceptionCaught(new OtlpRejectedException(OtlpRejectReason.UNAVAILABLE,
                    "this collector cannot hand data on now (" + sink.unavailableReason() + "); retry later"));
            next(ctx);
            return;
        }
        String clientHost = clientHost(ctx);
        long nowMs = System.currentTimeMillis();
        OtlpExport export = OtlpExport.of(msg, clientHost, nowMs, window, metricMapper, metrics);
        if (export == null) {
            return;
        }
        export.registerSenders(registry, OtlpErrorHandler.remote(ctx), nowMs);
        waiting.start(export.mapped.offers, nowMs);
        pendingAnswer = export.answer;
        drain(ctx);
    }

    private void drain(ChannelHandlerContext ctx) {
        if (!waiting.offerTo(sink)) {
            if (waiting.expired(System.currentTimeMillis()) || !ctx.channel().isActive()) {
                waiting.clear();
                pendingAnswer = null;
                ctx.channel().config().setAutoRead(true);
                ctx.fireExceptionCaught(new OtlpRejectedException(OtlpRejectReason.UNAVAILABLE,
                        "storage queue full for " + waiting.giveUpMillis() + " ms (--otlp-store-wait); retry later"));
                next(ctx);
                return;
            }
            ctx.channel().config().setAutoRead(false);
            ctx.executor().schedule(() -> drain(ctx), RETRY_MILLIS, TimeUnit.MILLISECONDS);
            return;
        }
        ctx.channel().config().setAutoRead(true);
        MessageLite answer = pendingAnswer;
        pendingAnswer = null;
        if (answer != null) {
            OtlpResponses.ok(ctx, answer, OtlpAttributes.keepAlive(ctx.channel()));
        }
        next(ctx);
    }

    private void next(ChannelHandlerContext ctx) {
        Object msg = deferred.pollFirst();
        if (msg != null) {
            channelRead(ctx, msg);
        }
    }

    private static String clientHost(ChannelHandlerContext ctx) {
        if (ctx.channel().remoteAddress() instanceof InetSocketAddress inet && inet.getAddress() != null) {
            return inet.getAddress().getHostAddress();
        }
        return "unknown";
    }
}
