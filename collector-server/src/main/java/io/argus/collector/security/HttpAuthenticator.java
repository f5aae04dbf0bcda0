package io.argus.collector.security;

import io.argus.collector.net.PeerAddress;
import io.argus.collector.RateLimitedLog;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import java.util.function.Function;
import java.util.logging.Logger;

/**
 * The credential check of one HTTP listener: decides on each request head and answers a refused one with 401, the
 * {@code WWW-Authenticate} challenges of the configured schemes and an error body in the listener's own format.
 * Refusals are counted in {@code argus.collector.http.unauthorized{listener}} and logged (one WARN line per
 * listener every 10 s at most). Shared by every connection of the listener; {@link #newHandler()} makes the
 * per-connection pipeline stage.
 */
public final class HttpAuthenticator {
    private static final Logger LOG = Logger.getLogger(HttpAuthenticator.class.getName());
    private static final String REALM = "realm=\"argus\"";

    private final HttpCredentials credentials;
    private final String listener;
    private final String contentType;
    private final Function<String, byte[]> errorBody;
    private final Counter refused;
    private final RateLimitedLog warnings = new RateLimitedLog(LOG, 10_000_000_000L);

    /**
     * @param errorBody turns the refusal message into the body of the 401 answer, in {@code contentType}
     */
    public HttpAuthenticator(HttpCredentials credentials, String listener, MeterRegistry meters, String contentType,
                             Function<String, byte[]> errorBody) {
        if (!credentials.required()) {
            throw new IllegalArgumentException("no credential to check");
        }
        this.credentials = credentials;
        this.listener = listener;
        this.contentType = contentType;
        this.errorBody = errorBody;
        this.refused = Counter.builder("argus.collector.http.unauthorized")
                .description("HTTP requests refused with 401 because they lacked a valid credential, by listener")
                .tag("listener", listener)
                .register(meters);
    }

    /** The pipeline stage for one connection; place it right after the HTTP codec. */
    public ChannelHandler newHandler() {
        return new HttpAuthHandler(this);
    }

    boolean accepts(HttpRequest req) {
        return credentials.accepts(req.headers().get(HttpHeaderNames.AUTHORIZATION));
    }

    /** Answers 401; closes the connection afterwards unless the request asked to keep it. */
    void refuse(ChannelHandlerContext ctx, HttpRequest req) {
        String authorization = req.headers().get(HttpHeaderNames.AUTHORIZATION);
        String message = authorization == null ? "authentication required" : "invalid credentials";
        refused.increment();
        warnings.warn(listener, "refused " + listener + " request from " + PeerAddress.of(ctx.channel()) + ": 401 "
                + message + " (" + req.method() + " " + abbreviate(req.uri()) + ")");
        byte[] body = errorBody.apply(message);
        boolean keepAlive = HttpUtil.isKeepAlive(req);
        FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.UNAUTHORIZED,
                Unpooled.wrappedBuffer(body));
        if (credentials.user() != null) {
            res.headers().add(HttpHeaderNames.WWW_AUTHENTICATE, "Basic " + REALM + ", charset=\"UTF-8\"");
        }
        if (credentials.token() != null) {
            boolean badToken = authorization != null && authorization.strip().regionMatches(true, 0, "Bearer ", 0, 7);
            res.headers().add(HttpHeaderNames.WWW_AUTHENTICATE,
                    "Bearer " + REALM + (badToken ? ", error=\"invalid_token\"" : ""));
        }
        res.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
        res.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
        res.headers().set(HttpHeaderNames.CACHE_CONTROL, "no-store");
        res.headers().set(HttpHeaderNames.CONNECTION, keepAlive ? HttpHeaderValues.KEEP_ALIVE : HttpHeaderValues.CLOSE);
        if (keepAlive) {
            ctx.writeAndFlush(res, ctx.voidPromise());
        } else {
            ctx.writeAndFlush(res).addListener(ChannelFutureListener.CLOSE);
        }
    }


    private static String abbreviate(String uri) {
        String flat = uri.replace('\n', ' ').replace('\r', ' ');
        return flat.length() > 100 ? flat.substring(0, 100) + "..." : flat;
    }
}
