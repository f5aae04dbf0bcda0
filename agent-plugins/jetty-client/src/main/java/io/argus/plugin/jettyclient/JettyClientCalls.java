package io.argus.plugin.jettyclient;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.HeaderSetter;
import io.argus.bridge.client.ClientCalls;
import io.argus.bridge.state.LongField;
import io.argus.bridge.state.ObjectField;

/**
 * A call in flight, kept on its Jetty request from the exchange's creation to its completion, which
 * happens on another thread. A helper class, shared by the 9.4 and 12 advice.
 */
public final class JettyClientCalls {

    static final String SPAN = "jetty-client.span";
    static final String START = "jetty-client.start";

    /** The client span of a traced request. */
    public static final ObjectField<ActiveSpan> REQUEST_SPAN = ObjectField.named(SPAN);
    /** The start of every request sent; 0 once it has ended. */
    public static final LongField REQUEST_START = LongField.named(START);

    private JettyClientCalls() {
    }

    /**
     * A request is being sent: keeps its start (and span, if traced) and, traced, puts the span's
     * context in its headers, replacing any the application copied there.
     */
    public static <R> void sent(R request, ActiveSpan span, long startNanos, HeaderSetter<R> headers) {
        // kept first: should the headers fail, the span still ends with the request
        REQUEST_START.set(request, startNanos);
        if (span != null) {
            REQUEST_SPAN.set(request, span);
            ClientCalls.inject(span, request, headers);
        }
    }

    /** Ends the request's call; does nothing when it has already ended (a redirect's forwarded result). */
    public static void completed(Object request, String method, String host, int status, Throwable failure) {
        long startNanos = REQUEST_START.remove(request);
        if (startNanos != 0) {
            ClientCalls.end(REQUEST_SPAN.remove(request), startNanos, method, host, status, failure);
        }
    }
}
