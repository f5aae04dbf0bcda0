package io.argus.collector.otlp;

import io.argus.collector.net.PeerAddress;
import io.argus.collector.ingest.AgentRegistry;
import io.argus.collector.ingest.ClockWindow;
import io.argus.collector.storage.IngestSink;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * Maps a decoded OTLP/gRPC export request exactly as OTLP/HTTP does ({@link OtlpExport}), hands its batches to the
 * store, records its senders and answers with the export response. While the store's queue is full the batches
 * not yet taken are offered again every {@value OtlpRouter#RETRY_MILLIS} ms, so the call waits for its answer;
 * after {@code --otlp-store-wait} it is answered UNAVAILABLE, which OTLP clients retry. One instance
 * per stream.
 */
final class GrpcExportRouter extends ChannelInboundHandlerAdapter {
    private final IngestSink sink;
    private final AgentRegistry registry;
    private final MetricMapper metricMapper;
    private final OtlpMetrics metrics;
    private final ClockWindow window;
    private final PendingOffers waiting;
    private OtlpExport export;

    GrpcExportRouter(IngestSink sink, AgentRegistry registry, MetricMapper metricMapper, OtlpMetrics metrics,
                     ClockWindow window, long storeWaitMillis) {
        this.window = window;
        this.waiting = new PendingOffers(storeWaitMillis);
        this.sink = sink;
        this.registry = registry;
        this.metricMapper = metricMapper;
        this.metrics = metrics;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!sink.accepting()) {
            ctx.fireExceptionCaught(new GrpcRejectedException(GrpcRejectReason.UNAVAILABLE,
                    "this collector cannot hand data on now (" + sink.unavailableReason() + "); retry later"));
            return;
        }
        long nowMs = System.currentTimeMillis();
        export = OtlpExport.of(msg, clientHost(ctx), nowMs, window, metricMapper, metrics);
        if (export == null) {
            return;
        }
        export.registerSenders(registry, PeerAddress.of(ctx.channel().parent()), nowMs);
        waiting.start(export.mapped.offers, nowMs);
        drain(ctx);
    }

    private void drain(ChannelHandlerContext ctx) {
        if (!waiting.offerTo(sink)) {
            if (waiting.expired(System.currentTimeMillis()) || !ctx.channel().isActive()) {
                waiting.clear();
                ctx.fireExceptionCaught(new GrpcRejectedException(GrpcRejectReason.UNAVAILABLE,
                        "storage queue full for " + waiting.giveUpMillis() + " ms (--otlp-store-wait); retry later"));
                return;
            }
            ctx.executor().schedule(() -> drain(ctx), OtlpRouter.RETRY_MILLIS, TimeUnit.MILLISECONDS);
            return;
        }
        GrpcResponses.ok(ctx, export.answer);
    }

    private static String clientHost(ChannelHandlerContext ctx) {
        if (ctx.channel().parent().remoteAddress() instanceof InetSocketAddress inet && inet.getAddress() != null) {
            return inet.getAddress().getHostAddress();
        }
        return "unknown";
    }
}
