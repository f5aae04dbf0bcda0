package io.argus.collector.otlp;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.MessageLite;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/** OTLP/HTTP answers: protobuf bodies, an export response on success and a {@code google.rpc.Status} on error. */
final class OtlpResponses {
    static final String PROTOBUF = "application/x-protobuf";

    private OtlpResponses() {
    }

    static void ok(ChannelHandlerContext ctx, MessageLite body, boolean keepAlive) {
        send(ctx, HttpResponseStatus.OK, body.toByteArray(), keepAlive);
    }

    /**
     * An error answer. {@code keepAlive} is false when the rest of the request cannot be read safely (the
     * connection then closes after the answer).
     */
    static void error(ChannelHandlerContext ctx, OtlpRejectReason reason, String message, boolean keepAlive) {
        FullHttpResponse res = response(reason.status(), status(reason.grpcCode(), message), keepAlive);
        if (reason == OtlpRejectReason.METHOD_NOT_ALLOWED) {
            res.headers().set(HttpHeaderNames.ALLOW, "POST");
        } else if (reason == OtlpRejectReason.UNAVAILABLE) {
            res.headers().set(HttpHeaderNames.RETRY_AFTER, "1");
        }
        write(ctx, res, keepAlive);
    }

    private static void send(ChannelHandlerContext ctx, HttpResponseStatus status, byte[] body, boolean keepAlive) {
        write(ctx, response(status, body, keepAlive), keepAlive);
    }

    private static FullHttpResponse response(HttpResponseStatus status, byte[] body, boolean keepAlive) {
        FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.wrappedBuffer(body));
        res.headers().set(HttpHeaderNames.CONTENT_TYPE, PROTOBUF);
        res.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
        res.headers().set(HttpHeaderNames.CONNECTION, keepAlive ? HttpHeaderValues.KEEP_ALIVE : HttpHeaderValues.CLOSE);
        return res;
    }

    private static void write(ChannelHandlerContext ctx, FullHttpResponse res, boolean keepAlive) {
        if (keepAlive) {
            ctx.writeAndFlush(res, ctx.voidPromise());
        } else {
            ctx.writeAndFlush(res).addListener(ChannelFutureListener.CLOSE);
        }
    }

    /** {@code google.rpc.Status{code, message}}, encoded by hand (the type is not part of the OTLP classes). */
    static byte[] status(int code, String message) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(message.length() + 8);
            CodedOutputStream out = CodedOutputStream.newInstance(bytes);
            out.writeInt32(1, code);
            out.writeString(2, message);
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
