package io.argus.collector.http;

import io.argus.collector.net.PeerAddress;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.argus.collector.HttpDecodeFailures;
import io.argus.collector.HttpLimits;
import io.argus.collector.RateLimitedLog;
import io.argus.collector.alerting.Alerting;
import io.argus.collector.storage.AgentDirectory;
import io.argus.collector.storage.Ids;
import io.argus.collector.storage.IngestSink;
import io.argus.collector.storage.QueryStore;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import io.argus.collector.alerting.state.AlertTracker;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The query API, the web UI and {@code /metrics}. Requests are parsed on the event loop; anything that
 * touches storage runs on the query executor so that a slow query never stalls other connections.
 */
@ChannelHandler.Sharable
final class HttpApiHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
    private static final Logger LOG = Logger.getLogger(HttpApiHandler.class.getName());
    static final int JVM_POINTS = 60;
    static final String JSON = "application/json; charset=utf-8";
    /** The UI's files other than the page itself: {@code /ui/argus.js}, ... */
    static final String UI_PREFIX = "/ui/";
    private static final String PROMETHEUS = "text/plain; version=0.0.4; charset=utf-8";

    static final String INGEST_ONLY = "this collector is an ingest-only node (--storage kafka): it stores nothing;"
            + " query the query collector";

    /** {@code null} on an ingest-only collector. */
    private final QueryStore storage;
    /** Where ingest hands data, for {@code /api/status}; {@code null} on a query node. */
    private final IngestSink sink;
    private final HttpLimits limits;
    private final AgentDirectory registry;
    /** {@code null} without a rules file. */
    private final Alerting alerting;
    private final PrometheusMeterRegistry meters;
    private final ExecutorService queries;
    private final ObjectMapper json;
    private final StaticFiles files;
    private final QueryApi api;
    /** One line per route every 10 s at most: a script with a bad parameter must not flood the log. */
    private final RateLimitedLog badRequests = new RateLimitedLog(LOG, TimeUnit.SECONDS.toNanos(10));

    HttpApiHandler(QueryStore storage, IngestSink sink, AgentDirectory registry, Alerting alerting,
                   PrometheusMeterRegistry meters, ExecutorService queries, ObjectMapper json, StaticFiles files,
                   Clock clock, HttpLimits limits) {
        this.storage = storage;
        this.limits = limits;
        this.sink = sink;
        this.registry = registry;
        this.alerting = alerting;
        this.meters = meters;
        this.queries = queries;
        this.json = json;
        this.files = files;
        this.api = new QueryApi(storage, registry, clock);
    }

    private record Reply(HttpResponseStatus status, String contentType, byte[] body) {
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
        boolean keepAlive = HttpUtil.isKeepAlive(req);
        boolean head = HttpMethod.HEAD.equals(req.method());
        if (!req.decoderResult().isSuccess()) {
            HttpResponseStatus status = HttpDecodeFailures.status(req);
            String message = HttpDecodeFailures.message(req, limits);
            badRequests.warn(status, "refused HTTP request from " + PeerAddress.of(ctx.channel()) + ": "
                    + status.code() + " " + message);
            send(ctx, error(status, message), false, false, null, 0);
            return;
        }
        QueryStringDecoder uri = new QueryStringDecoder(req.uri());
        String path;
        QueryParams params;
        try {
            // the decoder is lazy: a malformed %-escape throws here, not at construction
            path = uri.path();
            params = new QueryParams(uri.parameters());
        } catch (IllegalArgumentException e) {
            badRequests.warn("malformed", "refused HTTP request from " + PeerAddress.of(ctx.channel())
                    + ": malformed URL: " + e.getMessage());
            send(ctx, error(HttpResponseStatus.BAD_REQUEST, "malformed URL: " + e.getMessage()), keepAlive, false,
                    null, 0);
            return;
        }
        if (path.length() > 1 && path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        String route = route(path);
        long start = System.nanoTime();
        if (!HttpMethod.GET.equals(req.method()) && !head) {
            send(ctx, error(HttpResponseStatus.METHOD_NOT_ALLOWED, "only GET is supported"), keepAlive, false,
                    route, start);
            return;
        }
        String finalPath = path;
        if ("ui".equals(route) || "not_found".equals(route)) {
            send(ctx, answer(route, finalPath, params), keepAlive, head, route, start);
            return;
        }
        try {
            queries.execute(() -> send(ctx, answer(route, finalPath, params), keepAlive, head, route, start));
        } catch (RejectedExecutionException e) {
            send(ctx, error(HttpResponseStatus.SERVICE_UNAVAILABLE, "too many queries in flight"), keepAlive, head,
                    route, start);
        }
    }

    private static String route(String path) {
        return switch (path) {
            case "/", "/index.html", "/ui", "/favicon.ico" -> "ui";
            case "/api/alerts" -> "alerts";
            case "/api/alerts/rules" -> "alert_rules";
            case "/api/alerts/history" -> "alert_history";
            case "/api/services" -> "services";
            case "/api/agents" -> "agents";
            case "/api/status" -> "status";
            case "/api/traces" -> "traces";
            case "/api/metrics/http" -> "metrics_http";
            case "/api/metrics/jvm" -> "metrics_jvm";
            case "/api/series/red" -> "series_red";
            case "/api/series/jvm" -> "series_jvm";
            case "/api/servicemap" -> "servicemap";
            case "/api/servicemap/traces" -> "servicemap_traces";
            case "/metrics" -> "prometheus";
            default -> path.startsWith("/api/traces/") && path.indexOf('/', "/api/traces/".length()) < 0
                    ? "trace" : path.startsWith(UI_PREFIX) ? "ui" : "not_found";
        };
    }

    private Reply answer(String route, String path, QueryParams params) {
        try {
            if (storage == null && needsStorage(route)) {
                throw new ApiException(HttpResponseStatus.SERVICE_UNAVAILABLE, INGEST_ONLY);
            }
            return switch (route) {
                case "ui" -> {
                    // "/ui/" arrives here as "/ui": the page, like "/"
                    StaticFiles.File file = files.get(path.startsWith(UI_PREFIX)
                            ? path.substring(UI_PREFIX.length()) : path.equals("/favicon.ico") ? "favicon.ico"
                            : "index.html");
                    if (file == null) {
                        throw ApiException.notFound("no such resource: " + QueryParams.truncate(path));
                    }
                    yield new Reply(HttpResponseStatus.OK, file.contentType(), file.body());
                }
                case "services" -> ok(registry.services());
                case "agents" -> ok(registry.agents());
                case "status" -> ok(status());
                case "traces" -> ok(api.traces(params));
                case "trace" -> {
                    String id = path.substring("/api/traces/".length());
                    long[] tid;
                    try {
                        tid = Ids.parseTraceId(id);
                    } catch (IllegalArgumentException e) {
                        throw ApiException.badRequest("malformed trace id '" + QueryParams.truncate(id) + "': " + e.getMessage());
                    }
                    yield ok(storage.trace(tid[0], tid[1])
                            .orElseThrow(() -> ApiException.notFound("trace " + id.toLowerCase() + " not found")));
                }
                case "metrics_http" -> ok(api.callMetrics(params));
                case "metrics_jvm" -> {
                    String service = params.string("service");
                    if (service == null) {
                        throw ApiException.badRequest("parameter 'service' is required");
                    }
                    yield ok(storage.jvmMetrics(service, JVM_POINTS));
                }
                case "series_red" -> ok(api.redSeries(params));
                case "series_jvm" -> ok(api.jvmSeries(params));
                case "servicemap" -> ok(api.serviceMap(params));
                case "servicemap_traces" -> ok(api.edgeTraces(params));
                case "alerts" -> ok(alerting == null ? List.of() : alerting.alerts());
                case "alert_rules" -> ok(alerting == null ? Map.of("rules", List.of(), "channels", List.of())
                        : alerting.rules());
                case "alert_history" -> {
                    int limit = params.intValue("limit", 100, 1, AlertTracker.HISTORY_SIZE);
                    yield ok(alerting == null ? List.of() : alerting.history(params.string("service"), limit));
                }
                case "prometheus" -> new Reply(HttpResponseStatus.OK, PROMETHEUS,
                        meters.scrape().getBytes(StandardCharsets.UTF_8));
                default -> throw ApiException.notFound("no such resource: " + QueryParams.truncate(path));
            };
        } catch (ApiException e) {
            if (e.status().equals(HttpResponseStatus.BAD_REQUEST)) {
                badRequests.warn(route, "bad query " + QueryParams.truncate(path) + ": " + e.getMessage());
            }
            return error(e.status(), e.getMessage());
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "query " + path + " failed", e);
            return error(HttpResponseStatus.INTERNAL_SERVER_ERROR, "internal error: " + e.getMessage());
        }
    }

    /** Whether what ingest accepts can be stored (or handed on): the UI's agent view and scripts read it. */
    private Map<String, Object> status() {
        Map<String, Object> storage = new LinkedHashMap<>();
        boolean accepting = sink == null || sink.accepting();
        storage.put("state", accepting ? "ok" : "failing");
        storage.put("reason", accepting ? null : sink.unavailableReason());
        storage.put("sinceMs", accepting || sink.unavailableSinceMs() == 0 ? null : sink.unavailableSinceMs());
        return Map.of("storage", storage);
    }

    private static boolean needsStorage(String route) {
        return switch (route) {
            case "traces", "trace", "metrics_http", "metrics_jvm", "series_red", "series_jvm", "servicemap",
                 "servicemap_traces" -> true;
            default -> false;
        };
    }

    private Reply ok(Object body) {
        try {
            return new Reply(HttpResponseStatus.OK, JSON, json.writeValueAsBytes(body));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private Reply error(HttpResponseStatus status, String message) {
        return new Reply(status, JSON, errorJson(json, status.code(), message));
    }

    /** The API's error body, {@code {"error": "...", "status": N}}. */
    static byte[] errorJson(ObjectMapper json, int status, String message) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("error", message);
        body.put("status", status);
        try {
            return json.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private void send(ChannelHandlerContext ctx, Reply reply, boolean keepAlive, boolean head, String route,
                      long startNanos) {
        ByteBuf content = head ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(reply.body());
        FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, reply.status(), content);
        res.headers().set(HttpHeaderNames.CONTENT_TYPE, reply.contentType());
        res.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, reply.body().length);
        res.headers().set(HttpHeaderNames.CACHE_CONTROL, "no-store");
        if (keepAlive) {
            res.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
        } else {
            res.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        }
        if (route != null) {
            Timer.builder("argus.collector.http.requests")
                    .description("HTTP API requests")
                    .tag("route", route)
                    .tag("status", Integer.toString(reply.status().code()))
                    .register(meters)
                    .record(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS);
        }
        if (keepAlive) {
            ctx.writeAndFlush(res);
        } else {
            ctx.writeAndFlush(res).addListener(ChannelFutureListener.CLOSE);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.log(Level.FINE, "HTTP connection failed", cause);
        ctx.close();
    }
}
