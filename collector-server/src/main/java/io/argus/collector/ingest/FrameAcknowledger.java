package io.argus.collector.ingest;

import io.argus.collector.storage.IngestSink;
import io.argus.protocol.Ack;
import io.argus.protocol.CollectorFrame;
import io.argus.protocol.Frame;
import io.argus.protocol.HandshakeReply;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.Queue;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Acknowledgements, for an agent whose handshake asks for them: answers the handshake with a
 * {@code HandshakeReply}, numbers the frames after it from 1, and writes an {@code Ack} carrying the highest number
 * up to which every frame's content has been handed on. The sink reports each batch when it is durable (in the
 * commit that holds it, or acknowledged by Kafka for every record), in any order across tables and partitions; a
 * heartbeat is handed on once routed. An agent that did not ask gets nothing back: older agents see no change.
 *
 * <p>Passes every frame on as an {@link AcceptedFrame}. One instance per connection; its state is touched on the
 * channel's event loop only, the sink's callbacks come back to it there.
 */
final class FrameAcknowledger extends ChannelInboundHandlerAdapter {
    private static final CollectorFrame REPLY = CollectorFrame.newBuilder()
            .setHandshakeReply(HandshakeReply.newBuilder().setAcks(true)).build();

    private ChannelHandlerContext ctx;
    private boolean acking;
    /** Frames numbered so far. */
    private long received;
    /** Every frame up to this number has been handed on. */
    private long handedOn;
    /** The number of the last Ack written. */
    private long acknowledged;
    /** Frames handed on before an earlier one was. */
    private final TreeSet<Long> ahead = new TreeSet<>();
    /** Frames the sink reported from its own threads, for the event loop to take. */
    private final Queue<Long> reported = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean drainScheduled = new AtomicBoolean();

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (IngestAttributes.rejected(ctx.channel()) || !(msg instanceof Frame frame)) {
            return;
        }
        Runnable handedOn = IngestSink.NO_CALLBACK;
        if (frame.hasHandshake()) {
            acking = frame.getHandshake().getAcks();
            if (acking) {
                ctx.writeAndFlush(REPLY);
            }
        } else if (acking) {
            long sequence = ++received;
            handedOn = () -> reported(sequence);
        }
        ctx.fireChannelRead(new AcceptedFrame(frame, handedOn));
    }

    /**
     * On whichever thread the sink reports from (its writer after a commit, the Kafka producer's): one task on the
     * event loop takes every report queued meanwhile and writes one Ack. It is queued before the sink's flush
     * returns, so a collector that flushes before closing its connections acknowledges what it stored.
     */
    private void reported(long sequence) {
        reported.add(sequence);
        if (ctx.executor().inEventLoop()) {
            drain();
        } else if (drainScheduled.compareAndSet(false, true)) {
            try {
                ctx.executor().execute(this::drain);
            } catch (RejectedExecutionException stopped) {
                // the collector stopped its event loops: the connection is gone, nobody to acknowledge to
            }
        }
    }

    private void drain() {
        drainScheduled.set(false);
        Long sequence;
        while ((sequence = reported.poll()) != null) {
            if (sequence == handedOn + 1) {
                handedOn = sequence;
                while (!ahead.isEmpty() && ahead.first() == handedOn + 1) {
                    handedOn = ahead.pollFirst();
                }
            } else {
                ahead.add(sequence);
            }
        }
        if (handedOn > acknowledged && ctx.channel().isActive()) {
            acknowledged = handedOn;
            ctx.writeAndFlush(CollectorFrame.newBuilder().setAck(Ack.newBuilder().setSequence(handedOn)).build());
        }
    }
}
