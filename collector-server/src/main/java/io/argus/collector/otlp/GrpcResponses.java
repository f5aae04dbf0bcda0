package io.argus.collector.otlp;

import com.google.protobuf.MessageLite;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.Http2Headers;
import java.nio.charset.StandardCharsets;

/**
 * OTLP/gRPC answers on a call's stream: the response message between response headers and trailers, or a
 * trailers-only error ({@code grpc-status}, {@code grpc-message}).
 */
final class GrpcResponses {
    static final String CONTENT_TYPE = "application/grpc";

    private GrpcResponses() {
    }

    static void ok(ChannelHandlerContext ctx, MessageLite answer) {
        byte[] body = answer.toByteArray();
        ByteBuf framed = ctx.alloc().buffer(GrpcMessageDecoder.PREFIX + body.length);
        framed.writeByte(0).writeInt(body.length).writeBytes(body);
        ctx.write(new DefaultHttp2HeadersFrame(responseHeaders(200)));
        ctx.write(new DefaultHttp2DataFrame(framed));
        Http2Headers trailers = new DefaultHttp2Headers().set("grpc-status", "0");
        ctx.writeAndFlush(new DefaultHttp2HeadersFrame(trailers, true));
    }

    /** A trailers-only answer: the status in the only HEADERS frame, which ends the stream. */
    static void error(ChannelHandlerContext ctx, GrpcRejectReason reason, String message) {
        Http2Headers h = responseHeaders(reason.httpStatus())
                .set("grpc-status", String.valueOf(reason.grpcCode()))
                .set("grpc-message", percentEncode(message));
        if (reason == GrpcRejectReason.UNSUPPORTED_ENCODING) {
            h.set("grpc-accept-encoding", "gzip,identity");
        }
        ctx.writeAndFlush(new DefaultHttp2HeadersFrame(h, true));
    }

    private static Http2Headers responseHeaders(int status) {
        return new DefaultHttp2Headers().status(String.valueOf(status)).set("content-type", CONTENT_TYPE)
                .set("grpc-accept-encoding", "gzip,identity");
    }

    /** gRPC's percent-encoding of {@code grpc-message}: UTF-8, with everything outside printable ASCII escaped. */
    static String percentEncode(String message) {
        String flat = message.length() > 500 ? message.substring(0, 500) + "..." : message;
        StringBuilder b = new StringBuilder(flat.length());
        for (byte x : flat.getBytes(StandardCharsets.UTF_8)) {
            int c = x & 0xff;
            if (c >= 0x20 && c <= 0x7e && c != '%') {
                b.append((char) c);
            } else {
                b.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
        }
        return b.toString();
    }
}
