package io.argus.collector.ingest;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import java.nio.ByteOrder;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;

/**
 * Splits the byte stream into frames: a 4-byte big-endian length, then that many bytes. The length is checked as
 * soon as it arrives, before anything of the frame is buffered: one with the high bit set is no length at all
 * ({@code bad_length}); above {@code --max-frame-bytes}, or above the much smaller {@code --max-handshake-bytes} while
 * the connection has not been accepted as an agent, it is {@code frame_too_large}. A frame larger than
 * {@value #UNCOUNTED_FRAME_BYTES} bytes reserves its length in the shared {@link FrameMemoryBudget}; when that is
 * spent the connection is not read until room is made. Smaller frames are not counted: a connection holds that much
 * beyond its reservation anyway (one socket read), and heartbeats, metrics and small batches keep flowing while large
 * frames wait. Reports a frame left unfinished when the connection closes. One instance per connection.
 */
final class IngestFrameDecoder extends LengthFieldBasedFrameDecoder implements FrameMemoryBudget.Waiter {
    /** Frames up to this size (prefix included) do not reserve: the most one socket read buffers anyway. */
    static final int UNCOUNTED_FRAME_BYTES = 64 * 1024;
    private final int maxFrameBytes;
    private final int maxHandshakeBytes;
    private final FrameMemoryBudget budget;
    private ChannelHandlerContext ctx;
    /** Bytes this connection holds in the budget for the frame under way. */
    private long reserved;
    /** Bytes of the frame under way that did not fit the budget yet; 0 when not waiting. */
    private long wanted;

    IngestFrameDecoder(int maxFrameBytes, int maxHandshakeBytes, FrameMemoryBudget budget) {
        // maxFrameLength counts the 4-byte prefix too; strip the prefix from what is passed on
        super(maxFrameBytes + 4, 0, 4, 0, 4, true);
        this.maxFrameBytes = maxFrameBytes;
        this.maxHandshakeBytes = maxHandshakeBytes;
        this.budget = budget;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
        this.ctx = ctx;
        super.handlerAdded(ctx);
    }

    /** Bytes received and not yet passed on as a frame: the frame under way. */
    int bufferedBytes() {
        return actualReadableBytes();
    }

    @Override
    protected long getUnadjustedFrameLength(ByteBuf buf, int offset, int length, ByteOrder order) {
        long frame = buf.getUnsignedInt(offset);
        if (frame > Integer.MAX_VALUE) {
            throw new CorruptedFrameException(String.format("length prefix 0x%08x has the high bit set: not a frame"
                    + " length", frame));
        }
        if (frame > maxHandshakeBytes && ctx.channel().attr(IngestAttributes.SESSION).get() == null) {
            throw new IngestRejectedException(RejectReason.FRAME_TOO_LARGE, "a frame of " + frame
                    + " bytes before the handshake; the limit there is " + maxHandshakeBytes
                    + " (--max-handshake-bytes)");
        }
        if (frame + 4 > UNCOUNTED_FRAME_BYTES && frame <= maxFrameBytes) {
            reserve(frame + 4); // one above maxFrameBytes is refused right after this, unbuffered
        }
        return frame;
    }

    private void reserve(long bytes) {
        if (budget.tryReserve(bytes)) {
            reserved = bytes;
            return;
        }
        wanted = bytes;
        ReadGate.pause(ctx.channel(), ReadGate.Reason.MEMORY);
        budget.await(this);
    }

    @Override
    public long wanted() {
        return wanted;
    }

    /** From a release on any thread: tries again on this connection's event loop. */
    @Override
    public void retry() {
        try {
            ctx.executor().execute(this::retryOnEventLoop);
        } catch (RejectedExecutionException stopped) {
            // the collector is stopping: nothing to read any more
        }
    }


    private void retryOnEventLoop() {
        if (wanted == 0 || !ctx.channel().isActive()) {
            return;
        }
        if (budget.tryReserve(wanted)) {
            reserved = wanted;
            wanted = 0;
            ReadGate.resume(ctx.channel(), ReadGate.Reason.MEMORY);
        } else {
            budget.await(this);
        }
    }

    @Override
    protected Object decode(ChannelHandlerContext ctx, ByteBuf in) throws Exception {
        if (IngestAttributes.rejected(ctx.channel())) {
            in.skipBytes(in.readableBytes());
            return null;
        }
        Object frame = super.decode(ctx, in);
        if (frame != null) {
            // the frame's bytes are decoded right after this, on this thread: its reservation ends here
            releaseReservation();
        }
        return frame;
    }

    private void releaseReservation() {
        long held = reserved;
        reserved = 0;
        if (wanted > 0) {
            // the whole frame arrived while waiting for room: nothing is waited for any more
            wanted = 0;
            ReadGate.resume(ctx.channel(), ReadGate.Reason.MEMORY);
        }
        budget.release(held);
    }

    @Override
    protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
        super.decodeLast(ctx, in, out);
        if (in.isReadable() && !IngestAttributes.rejected(ctx.channel())) {
            int left = in.readableBytes();
            in.skipBytes(left);
            throw new IngestRejectedException(RejectReason.TRUNCATED_FRAME,
                    "connection closed with " + left + " byte(s) of an unfinished frame");
        }
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) throws Exception {
        wanted = 0;
        budget.release(reserved);
        reserved = 0;
        super.handlerRemoved0(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        try {
            super.channelInactive(ctx);
        } finally {
            wanted = 0;
            budget.release(reserved);
            reserved = 0;
        }
    }
}
