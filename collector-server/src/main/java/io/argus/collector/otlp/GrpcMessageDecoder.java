package io.argus.collector.otlp;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.CompositeByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2StreamFrame;
import io.netty.util.ReferenceCountUtil;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.GZIPInputStream;

/**
 * Collects a unary call's DATA frames (at most the cap plus the 5-byte prefix), then takes the one length-prefixed
 * gRPC message out of them, gunzips it when flagged, and parses the export request. One instance per stream.
 */
final class GrpcMessageDecoder extends ChannelInboundHandlerAdapter {
    /** Compressed flag (1 byte) and big-endian length (4 bytes) before each gRPC message. */
    static final int PREFIX = 5;

    private final int maxMessageBytes;
    private GrpcCall call;
    private CompositeByteBuf body;
    private boolean done;

    GrpcMessageDecoder(int maxMessageBytes) {
        this.maxMessageBytes = maxMessageBytes;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof GrpcCall c) {
            call = c;
            body = ctx.alloc().compositeBuffer(64);
            return;
        }
        if (done || call == null || !(msg instanceof Http2StreamFrame frame)) {
            ReferenceCountUtil.release(msg);
            return;
        }
        boolean end;
        if (frame instanceof Http2DataFrame data) {
            end = data.isEndStream();
            if (body.readableBytes() + data.content().readableBytes() > (long) maxMessageBytes + PREFIX) {
                data.release();
                fail(ctx, new GrpcRejectedException(GrpcRejectReason.TOO_LARGE, "message larger than the limit of "
                        + maxMessageBytes + " bytes"));
                return;
            }
            body.addComponent(true, data.content().retain());
            data.release();
        } else {
            end = ((Http2HeadersFrame) frame).isEndStream();
        }
        if (end) {
            done = true;
            try {
                ctx.fireChannelRead(decode());
            } catch (GrpcRejectedException e) {
                ctx.fireExceptionCaught(e);
            } finally {
                release();
            }
        }
    }

    private Object decode() {
        if (body.readableBytes() < PREFIX) {
            throw new GrpcRejectedException(GrpcRejectReason.MALFORMED_FRAME, body.readableBytes() == 0
                    ? "the call carried no message" : "truncated message prefix (" + body.readableBytes() + " bytes)");
        }
        int flag = body.readUnsignedByte();
        long length = body.readUnsignedInt();
        if (flag > 1) {
            throw new GrpcRejectedException(GrpcRejectReason.MALFORMED_FRAME, "compressed flag " + flag
                    + " is neither 0 nor 1");
        }
        if (length != body.readableBytes()) {
            throw new GrpcRejectedException(GrpcRejectReason.MALFORMED_FRAME, "the prefix announces " + length
                    + " bytes but " + body.readableBytes() + " follow (a unary call carries exactly one message)");
        }
        if (flag == 1 && !call.gzip()) {
            throw new GrpcRejectedException(GrpcRejectReason.UNSUPPORTED_ENCODING,
                    "a compressed message without grpc-encoding: gzip");
        }
        try {
            CodedInputStream in = flag == 1 ? CodedInputStream.newInstance(gunzip(body))
                    : CodedInputStream.newInstance(body.nioBuffer());
            return switch (call.signal()) {
                case TRACES -> ExportTraceServiceRequest.parseFrom(in);
                case METRICS -> ExportMetricsServiceRequest.parseFrom(in);
            };
        } catch (InvalidProtocolBufferException e) {
            throw new GrpcRejectedException(GrpcRejectReason.BAD_PROTOBUF, "the message is not a valid "
                    + call.signal().path() + " export request: " + e.getMessage());
        } catch (IOException e) {
            throw new GrpcRejectedException(GrpcRejectReason.BAD_PROTOBUF, "cannot read the message: " + e);
        }
    }

    /** The gunzipped message, or TOO_LARGE as soon as it grows past the cap (a gzip bomb stops there). */
    private byte[] gunzip(ByteBuf compressed) throws IOException {
        try (InputStream in = new GZIPInputStream(new ByteBufInputStream(compressed))) {
            byte[] out = in.readNBytes(maxMessageBytes + 1);
            if (out.length > maxMessageBytes) {
                throw new GrpcRejectedException(GrpcRejectReason.TOO_LARGE, "message larger than the limit of "
                        + maxMessageBytes + " bytes once decompressed");
            }
            return out;
        }
    }

    private void fail(ChannelHandlerContext ctx, GrpcRejectedException e) {
        done = true;
        release();
        ctx.fireExceptionCaught(e);
    }

    private void release() {
        if (body != null) {
            body.release();
            body = null;
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        release();
        ctx.fireChannelInactive();
    }
}
