package io.argus.collector.otlp;

import io.argus.collector.HttpDecodeFailures;
import io.argus.collector.HttpLimits;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.util.Locale;

/**
 * Checks each request head before its body is read: the path ({@code /v1/traces}, {@code /v1/metrics}), the
 * method (POST), the content type ({@code application/x-protobuf}), the content encoding (none, gzip or deflate)
 * and a declared length within the cap. A refused request is reported as an {@link OtlpRejectedException} and
 * the rest of its body is dropped here. One instance per connection.
 */
final class OtlpRequestFilter extends ChannelInboundHandlerAdapter {
    private final long maxBodyBytes;
    private final HttpLimits limits;
    private boolean discarding;

    OtlpRequestFilter(long maxBodyBytes, HttpLimits limits) {
        this.maxBodyBytes = maxBodyBytes;
        this.limits = limits;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof HttpRequest req) {
            ctx.channel().attr(OtlpAttributes.KEEP_ALIVE).set(HttpUtil.isKeepAlive(req));
            OtlpRejectedException refused = check(req);
            if (refused != null) {
                ReferenceCountUtil.release(msg);
                discarding = !(msg instanceof LastHttpContent);
                ctx.fireExceptionCaught(refused);
                return;
            }
            discarding = false;
        } else if (discarding && msg instanceof HttpContent) {
            discarding = !(msg instanceof LastHttpContent);
            ReferenceCountUtil.release(msg);
            return;
        }
        ctx.fireChannelRead(msg);
    }

    private OtlpRejectedException check(HttpRequest req) {
        if (!req.decoderResult().isSuccess()) {
            HttpResponseStatus status = HttpDecodeFailures.status(req);
            return new OtlpRejectedException(status.equals(HttpResponseStatus.REQUEST_URI_TOO_LONG)
                    ? OtlpRejectReason.URI_TOO_LONG : status.equals(HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE)
                    ? OtlpRejectReason.HEADERS_TOO_LARGE : OtlpRejectReason.MALFORMED_REQUEST,
                    HttpDecodeFailures.message(req, limits));
        }
        Signal signal = Signal.of(req.uri());
        if (signal == null) {
            return new OtlpRejectedException(OtlpRejectReason.NOT_FOUND,
                    "unknown path " + abbreviate(req.uri()) + "; OTLP/HTTP takes /v1/traces and /v1/metrics");
        }
        if (!HttpMethod.POST.equals(req.method())) {
            return new OtlpRejectedException(OtlpRejectReason.METHOD_NOT_ALLOWED,
                    req.method() + " " + signal.path() + ": only POST is allowed");
        }
        String type = mediaType(req.headers().get(HttpHeaderNames.CONTENT_TYPE));
        if (!OtlpResponses.PROTOBUF.equals(type)) {
            return new OtlpRejectedException(OtlpRejectReason.UNSUPPORTED_MEDIA_TYPE, "content type "
                    + (type.isEmpty() ? "missing" : "'" + abbreviate(type) + "' not supported")
                    + "; send " + OtlpResponses.PROTOBUF);
        }
        String encoding = mediaType(req.headers().get(HttpHeaderNames.CONTENT_ENCODING));
        if (!encoding.isEmpty() && !encoding.equals("identity") && !encoding.equals("gzip")
                && !encoding.equals("deflate")) {
            return new OtlpRejectedException(OtlpRejectReason.UNSUPPORTED_MEDIA_TYPE,
                    "content encoding '" + abbreviate(encoding) + "' not supported; send gzip or none");
        }
        long length = HttpUtil.getContentLength(req, -1L);
        if (length > maxBodyBytes) {
            return new OtlpRejectedException(OtlpRejectReason.TOO_LARGE,
                    "body of " + length + " bytes, the limit is " + maxBodyBytes);
        }
        return null;
    }

    /** The media type without parameters, lower case; empty when absent. */
    private static String mediaType(String header) {
        if (header == null) {
            return "";
        }
        int semi = header.indexOf(';');
        return (semi >= 0 ? header.substring(0, semi) : header).strip().toLowerCase(Locale.ROOT);
    }

    static String abbreviate(String s) {
        return s.length() > 100 ? s.substring(0, 100) + "..." : s;
    }
}
