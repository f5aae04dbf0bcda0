package io.argus.collector.ingest;

import com.google.protobuf.InvalidProtocolBufferException;
import io.argus.protocol.Frame;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageDecoder;
import java.util.List;

/** Turns one frame's bytes into a {@link Frame} message. */
@ChannelHandler.Sharable
final class FrameProtobufDecoder extends MessageToMessageDecoder<ByteBuf> {
    private final IngestMetrics metrics;

    FrameProtobufDecoder(IngestMetrics metrics) {
        this.metrics = metrics;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf msg, List<Object> out) {
        if (IngestAttributes.rejected(ctx.channel())) {
            return;
        }
        metrics.bytesReceived(msg.readableBytes());
        try {
            out.add(Frame.parseFrom(msg.nioBuffer()));
        } catch (InvalidProtocolBufferException e) {
            throw new IngestRejectedException(RejectReason.BAD_PROTOBUF, e.getMessage());
        }
    }
}
