package io.argus.bridge.server;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.AgentStatus;
import io.argus.bridge.HeaderGetter;

/** Inbound requests: server spans and the HTTP server metrics. See the package {@code io.argus.bridge}. */
public final class ServerCalls {

    private static volatile ServerHooks hooks = ServerHooks.NOOP;

    private ServerCalls() {
    }

    public static void install(ServerHooks implementation) {
        hooks = implementation == null ? ServerHooks.NOOP : implementation;
    }

    /**
     * Starts a server span when the request is sampled (or its caller's was), joined to the inbound
     * context the core reads through {@code headers} (W3C {@code traceparent}/{@code tracestate}, B3
     * single and multi header), and makes it current on this thread. Null when not traced.
     */
    public static <C> ActiveSpan start(String method, String path, C request, HeaderGetter<C> headers) {
        return hooks().start(method, path, System.nanoTime(), request, headers);
    }

    /**
     * {@link #start(String, String, Object, HeaderGetter)} for a request whose start time the server or
     * the advice has already read ({@code System.nanoTime()}): the span starts then, and the clock is
     * not read again. Pass the same value to {@link #end}.
     */
    public static <C> ActiveSpan start(String method, String path, long startNanos, C request, HeaderGetter<C> headers) {
        return hooks().start(method, path, startNanos, request, headers);
    }

    /**
     * Names the server request in progress on this thread by its framework's route template
     * ({@code /api/orders/{id}}): its span and metrics use it instead of the path. Called by framework
     * plugins (Spring MVC, JAX-RS) once the request is matched; the last call before {@link #end} wins.
     */
    public static void route(String template) {
        hooks().route(template);
    }

    /** Records the request in the server metrics and ends the span, if any. */
    public static void end(ActiveSpan span, long startNanos, String method, String path, int status, Throwable error) {
        hooks().end(span, startNanos, method, path, status, error);
    }

    /** The core's hooks; before the core is ready (advice in a class defined early), waits for it. */
    private static ServerHooks hooks() {
        ServerHooks installed = hooks;
        if (installed == ServerHooks.NOOP) {
            AgentStatus.awaitSettled();
            installed = hooks;
        }
        return installed;
    }
}
