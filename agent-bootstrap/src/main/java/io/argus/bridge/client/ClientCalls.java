package io.argus.bridge.client;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.AgentStatus;
import io.argus.bridge.HeaderSetter;

/** Outbound calls: client spans, context injection and the HTTP client metrics. See the package {@code io.argus.bridge}. */
public final class ClientCalls {

    private static volatile ClientHooks hooks = ClientHooks.NOOP;

    private ClientCalls() {
    }

    public static void install(ClientHooks implementation) {
        hooks = implementation == null ? ClientHooks.NOOP : implementation;
    }

    /** Starts a client span as a child of the current span; null when this thread has no sampled span. */
    public static ActiveSpan start(String method, String host, int port, String url) {
        return hooks().start(method, host, port, url, System.nanoTime());
    }

    /**
     * {@link #start(String, String, int, String)} for a call whose start time the advice has already read
     * ({@code System.nanoTime()}): the span starts then, and the clock is not read again. Pass the same
     * value to {@link #end}.
     */
    public static ActiveSpan start(String method, String host, int port, String url, long startNanos) {
        return hooks().start(method, host, port, url, startNanos);
    }

    /**
     * Writes the span's context into the outbound request: {@code traceparent}, and {@code tracestate}
     * (removed when the span has none, replacing whatever the application copied there).
     */
    public static <C> void inject(ActiveSpan span, C request, HeaderSetter<C> headers) {
        if (span != null) {
            headers.set(request, "traceparent", span.traceparent());
            headers.set(request, "tracestate", span.tracestate());
        }
    }

    /** Records the call in the client metrics (per host, method, status) and ends the span, if any. */
    public static void end(ActiveSpan span, long startNanos, String method, String host, int status, Throwable error) {
        hooks().end(span, startNanos, method, host, status, error);
    }

    /**
     * For asynchronous clients: records the call (as {@link #end}) when {@code completionStage} (a
     * {@code java.util.concurrent.CompletionStage}) completes; the status is read from the result's
     * {@code statusCode()} when it has one. Allocates one callback per call.
     */
    public static void endOnCompletion(Object completionStage, ActiveSpan span, long startNanos, String method,
                                       String host) {
        hooks().endOnCompletion(completionStage, span, startNanos, method, host);
    }

    /** The core's hooks; before the core is ready (advice in a class defined early), waits for it. */
    private static ClientHooks hooks() {
        ClientHooks installed = hooks;
        if (installed == ClientHooks.NOOP) {
            AgentStatus.awaitSettled();
            installed = hooks;
        }
        return installed;
    }
}
