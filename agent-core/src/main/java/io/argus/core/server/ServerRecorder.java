package io.argus.core.server;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.HeaderGetter;
import io.argus.bridge.server.ServerHooks;
import io.argus.core.metrics.CallMetricsTable;
import io.argus.core.trace.RecordedSpan;
import io.argus.core.trace.ThreadContext;
import io.argus.core.trace.Tracer;

/** The agent behind {@code ServerCalls}: inbound context, server spans, HTTP server metrics. */
public final class ServerRecorder implements ServerHooks {

    private final Tracer tracer;
    private final CallMetricsTable metrics;
    private final RouteNormalizer routes;
    /** Set once a framework plugin names a route: until then no request pays for the thread-local. */
    private volatile boolean templatesSeen;

    public ServerRecorder(Tracer tracer, CallMetricsTable metrics, RouteNormalizer routes) {
        this.tracer = tracer;
        this.metrics = metrics;
        this.routes = routes;
    }

    /** Inbound propagation headers are read by {@link Tracer#startInbound}. */
    @Override
    public <C> ActiveSpan start(String method, String path, long startNanos, C request, HeaderGetter<C> headers) {
        ThreadContext thread = null;
        if (templatesSeen) {
            thread = Tracer.context();
            thread.routeTemplate(null);
        }
        return tracer.startInbound(RecordedSpan.KIND_SERVER, method, path, startNanos, request, headers, thread);
    }

    @Override
    public void end(ActiveSpan span, long startNanos, String method, String path, int status, Throwable error) {
        long now = System.nanoTime();
        boolean failed = error != null || status >= 500;
        // metrics: the path the request ended with (a forward may change it), traced or not;
        // the span keeps the name of the path it started with
        ThreadContext thread = templatesSeen ? Tracer.existingContext() : null;
        String template = thread != null ? thread.takeRouteTemplate() : null;
        String route = template != null ? template : routes.route(path);
        metrics.record(method, route, status, now - startNanos, failed);
        if (span instanceof RecordedSpan) {
            RecordedSpan recorded = (RecordedSpan) span;
            String started = recorded.target();
            recorded.setRoute(template != null || started == null || started.equals(path) ? route : routes.route(started));
            recorded.setHttpStatus(status);
            tracer.end(recorded, now, error, failed, thread);
        }
    }

    @Override
    public void route(String template) {
        if (template != null) {
            templatesSeen = true;
            Tracer.context().routeTemplate(template);
        }
    }
}
