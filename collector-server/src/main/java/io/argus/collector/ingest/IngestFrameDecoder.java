package io.argus.collector.ingest;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import java.util.List;

/**
 * Splits the byte stream into frames: a 4-byte big-endian length, then that many bytes. Fails fast on a
 * length above the cap (so an oversized frame is never buffered) and reports a frame left unfinished when
 * the connection closes.
 */
final class IngestFrameDecoder extends LengthFieldBasedFrameDecoder {
    IngestFrameDecoder(int maxFrameBytes) {
        // maxFrameLength counts the 4-byte prefix too; strip the prefix from what is passed on
        super(maxFrameBytes + 4, 0, 4, 0, 4, true);
    }

    @Override
    protected Object decode(ChannelHandlerContext ctx, ByteBuf in) throws Exception {
        if (IngestAttributes.rejected(ctx.channel())) {
            in.skipBytes(in.readableBytes());
            return null;
        }
        return super.decode(ctx, in);
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
}
