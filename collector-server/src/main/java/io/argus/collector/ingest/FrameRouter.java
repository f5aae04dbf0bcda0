package io.argus.collector.ingest;

import io.argus.collector.storage.AgentEvent;
import io.argus.collector.storage.IngestSink;
import io.argus.protocol.Frame;
import io.argus.protocol.Heartbeat;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Sends each validated frame where it belongs: span and metric batches to the {@link IngestSink}, handshakes and
 * heartbeats to the {@link AgentRegistry} (and, as session events, to the sink). A batch goes with its frame's
 * callback, which the sink runs once the batch is durable; a heartbeat's runs once it is routed.
 *
 * <p>When the store's queue is full the connection stops reading (TCP pushes back on the agent, whose own
 * bounded queue then drops and counts) and the batches already decoded wait here, in order, until the store
 * takes them. One instance per connection.
 */
final class FrameRouter extends ChannelInboundHandlerAdapter {
    static final long RETRY_MILLIS = 5;
    /** Give up on batches still waiting this long after their connection closed. */
    static final long ORPHAN_TIMEOUT_MILLIS = TimeUnit.SECONDS.toMillis(30);

    private final IngestSink sink;
    private final AgentRegistry registry;
    private final IngestMetrics metrics;
    private final ArrayDeque<BooleanSupplier> waiting = new ArrayDeque<>();
    private Heartbeat lastHeartbeat;
    private boolean retryScheduled;
    private long closedAtMs;

    FrameRouter(IngestSink sink, AgentRegistry registry, IngestMetrics metrics) {
        this.sink = sink;
        this.registry = registry;
        this.metrics = metrics;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (IngestAttributes.rejected(ctx.channel()) || !(msg instanceof AcceptedFrame accepted)) {
            return;
        }
        Frame frame = accepted.frame();
        Runnable handedOn = accepted.handedOn();
        AgentSession session = ctx.channel().attr(IngestAttributes.SESSION).get();
        switch (frame.getBodyCase()) {
            case HANDSHAKE -> {
                registry.connected(session);
                sink.agentEvent(event(AgentEvent.Type.CONNECTED, session));
            }
            case SPANS -> {
                registry.spans(session, frame.getSpans().getSpansCount());
                if (frame.getSpans().getSpansCount() > 0) {
                    store(ctx, () -> sink.offerSpans(session.source(), frame.getSpans(), handedOn));
                } else {
                    handedOn.run();
                }
            }
            case METRICS -> store(ctx, () -> sink.offerMetrics(session.source(), frame.getMetrics(), handedOn));
            case HEARTBEAT -> {
                registry.heartbeat(session, frame.getHeartbeat());
                lastHeartbeat = frame.getHeartbeat();
                sink.agentEvent(event(AgentEvent.Type.HEARTBEAT, session));
                handedOn.run();
            }
            default -> {
                // the validator lets nothing else through
            }
        }
        registry.seen(session, System.currentTimeMillis());
    }

    private AgentEvent event(AgentEvent.Type type, AgentSession session) {
        return new AgentEvent(System.currentTimeMillis(), type, session.source(), session.handshake(),
                session.remoteAddress(), lastHeartbeat);
    }

    private void store(ChannelHandlerContext ctx, BooleanSupplier offer) {
        if (waiting.isEmpty() && offer.getAsBoolean()) {
            return;
        }
        waiting.addLast(offer);
        ReadGate.pause(ctx.channel(), ReadGate.Reason.STORE_FULL);
        if (!retryScheduled) {
            metrics.backpressure();
            scheduleRetry(ctx);
        }
    }

    private void scheduleRetry(ChannelHandlerContext ctx) {
        retryScheduled = true;
        ctx.executor().schedule(() -> retry(ctx), RETRY_MILLIS, TimeUnit.MILLISECONDS);
    }

    private void retry(ChannelHandlerContext ctx) {
        retryScheduled = false;
        while (!waiting.isEmpty()) {
            if (!waiting.peekFirst().getAsBoolean()) {
                if (closedAtMs != 0 && System.currentTimeMillis() - closedAtMs > ORPHAN_TIMEOUT_MILLIS) {
                    waiting.clear();
                    return;
                }
                scheduleRetry(ctx);
                return;
            }
            waiting.pollFirst();
        }
        ReadGate.resume(ctx.channel(), ReadGate.Reason.STORE_FULL);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        closedAtMs = System.currentTimeMillis();
        AgentSession session = ctx.channel().attr(IngestAttributes.SESSION).get();
        if (session != null) {
            registry.disconnected(session);
            sink.agentEvent(event(AgentEvent.Type.DISCONNECTED, session));
        }
        super.channelInactive(ctx);
    }
}
