package io.argus.collector.otlp;

import io.argus.collector.security.HttpCredentials;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.util.ReferenceCountUtil;
import java.util.Locale;

/**
 * Checks the head of each OTLP/gRPC call before its message is read: the method (POST), the path (the trace or
 * metrics service's {@code Export}), the content type ({@code application/grpc}), the credential when the collector
 * asks for one, and the message encoding (identity or gzip). A refused call is reported as a
 * {@link GrpcRejectedException} and the rest of its stream is dropped here. One instance per stream.
 */
final class GrpcRequestFilter extends ChannelInboundHandlerAdapter {
    private final HttpCredentials credentials;
    private boolean headersSeen;
    private boolean discarding;

    GrpcRequestFilter(HttpCredentials credentials) {
        this.credentials = credentials;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (discarding) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (msg instanceof Http2HeadersFrame headers && !headersSeen) {
            headersSeen = true;
            GrpcCall call;
            try {
                call = check(headers.headers());
            } catch (GrpcRejectedException e) {
                discarding = true;
                ctx.fireExceptionCaught(e);
                return;
            }
            ctx.fireChannelRead(call);
            if (headers.isEndStream()) {
                ctx.fireChannelRead(headers); // no message at all: the decoder says so
            }
            return;
        }
        if (msg instanceof Http2DataFrame || msg instanceof Http2HeadersFrame) {
            ctx.fireChannelRead(msg);
            return;
        }
        ReferenceCountUtil.release(msg);
    }

    private GrpcCall check(Http2Headers h) {
        String method = String.valueOf(h.method());
        String path = String.valueOf(h.path());
        if (!"POST".equals(method)) {
            throw new GrpcRejectedException(GrpcRejectReason.METHOD_NOT_ALLOWED, method + " " + abbreviate(path)
                    + ": gRPC calls are POST");
        }
        String type = h.get("content-type") == null ? "" : h.get("content-type").toString().toLowerCase(Locale.ROOT);
        if (!type.equals("application/grpc") && !type.startsWith("application/grpc+proto")
                && !type.startsWith("application/grpc;")) {
            throw new GrpcRejectedException(GrpcRejectReason.UNSUPPORTED_MEDIA_TYPE, "content type "
                    + (type.isEmpty() ? "missing" : "'" + abbreviate(type) + "'") + "; send application/grpc");
        }
        if (credentials.required()) {
            CharSequence authorization = h.get("authorization");
            if (authorization == null || !credentials.accepts(authorization.toString())) {
                throw new GrpcRejectedException(GrpcRejectReason.UNAUTHENTICATED, authorization == null
                        ? "no credential: send 'authorization: Bearer <token>' (or Basic) metadata"
                        : "the credential was not accepted");
            }
        }
        Signal signal = switch (path) {
            case GrpcCall.TRACE_EXPORT -> Signal.TRACES;
            case GrpcCall.METRICS_EXPORT -> Signal.METRICS;
            default -> throw new GrpcRejectedException(GrpcRejectReason.UNKNOWN_METHOD, "unknown method "
                    + abbreviate(path) + "; this collector takes " + GrpcCall.TRACE_EXPORT + " and "
                    + GrpcCall.METRICS_EXPORT);
        };
        String encoding = h.get("grpc-encoding") == null ? "identity"
                : h.get("grpc-encoding").toString().strip().toLowerCase(Locale.ROOT);
        if (!encoding.equals("identity") && !encoding.equals("gzip")) {
            throw new GrpcRejectedException(GrpcRejectReason.UNSUPPORTED_ENCODING, "grpc-encoding '"
                    + abbreviate(encoding) + "' not supported; send gzip or identity");
        }
        return new GrpcCall(signal, encoding.equals("gzip"));
    }

    private static String abbreviate(String s) {
        return s.length() > 100 ? s.substring(0, 100) + "..." : s;
    }
}
