package io.argus.plugin.urlconnection;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.client.ClientCalls;
import io.argus.bridge.context.TraceContext;
import io.argus.bridge.state.ObjectField;
import net.bytebuddy.asm.Advice;

import java.net.HttpURLConnection;
import java.net.URL;

/**
 * Inlined into {@code connect()}, {@code plainConnect()}, {@code getOutputStream()} and
 * {@code getInputStream()} of {@code sun.net.www.protocol.http.HttpURLConnection}.
 *
 * <p>The first of these calls on a connection starts the request. "First" is read from the
 * connection itself: the public methods set the private {@code connecting} flag right after this
 * advice runs, and {@code connected} becomes true once a socket is open, so a later or nested call
 * finds one of them set. No state of the agent is needed for that.
 *
 * <p>Untraced: a boolean and a time stamp in advice locals, nothing else; the metric is recorded by
 * {@link ResponseAdvice}, or here if {@code connect()} / {@code getOutputStream()} fails before a
 * response exists. Traced: a client span starts, {@code traceparent} (and {@code tracestate}) go in
 * through {@code setRequestProperty} while the connection still accepts request properties, and the
 * span is kept on the connection (the object field {@value HttpUrlConnectionPlugin#SPAN_FIELD}) until
 * the response (or the failure) ends it.
 *
 * <p>Advice code is copied into the JDK class: it may use only the bridge and the JDK, no helper
 * classes (none can be defined in the boot loader), no lambdas. So the field is looked up by name,
 * and the trace headers are set by hand rather than through a {@code HeaderSetter}.
 */
public final class RequestStartAdvice {

    private RequestStartAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static ActiveSpan enter(@Advice.This HttpURLConnection connection,
                                   @Advice.Origin("#m") String probe,
                                   @Advice.FieldValue("connected") boolean connected,
                                   @Advice.FieldValue("connecting") boolean connecting,
                                   @Advice.FieldValue("doInput") boolean doInput,
                                   @Advice.FieldValue("doOutput") boolean doOutput,
                                   @Advice.Local("argusFirst") boolean first,
                                   @Advice.Local("argusStartNanos") long startNanos) {
        if (connected || connecting) {
            return null;
        }
        boolean output = "getOutputStream".equals(probe);
        if (output ? !doOutput : "getInputStream".equals(probe) && !doInput) {
            // refused with a ProtocolException before anything is sent: not a request
            return null;
        }
        first = true;
        startNanos = System.nanoTime();
        if (TraceContext.current() == null) {
            return null;
        }
        String method = connection.getRequestMethod();
        if (output && "GET".equals(method)) {
            method = "POST"; // what getOutputStream() turns a GET into
        }
        URL url = connection.getURL();
        int port = url.getPort();
        // scheme://host[:port]/path?query: never the user info
        StringBuilder target = new StringBuilder(64).append(url.getProtocol()).append("://").append(url.getHost());
        if (port >= 0) {
            target.append(':').append(port);
        } else {
            port = url.getDefaultPort();
        }
        target.append(url.getFile());
        ActiveSpan span = ClientCalls.start(method, url.getHost(), port, target.toString());
        if (span == null) {
            return null;
        }
        try {
            connection.setRequestProperty("traceparent", span.traceparent());
            String tracestate = span.tracestate();
            if (tracestate != null) {
                connection.setRequestProperty("tracestate", tracestate);
            }
        } catch (RuntimeException refused) {
            // the request goes out without trace headers; the span is still recorded
        }
        ObjectField.named(HttpUrlConnectionPlugin.SPAN_FIELD).set(connection, span);
        return span;
    }

    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    public static void exit(@Advice.This HttpURLConnection connection,
                            @Advice.Origin("#m") String probe,
                            @Advice.Enter ActiveSpan span,
                            @Advice.Local("argusFirst") boolean first,
                            @Advice.Local("argusStartNanos") long startNanos,
                            @Advice.FieldValue("responseCode") int responseCode,
                            @Advice.Thrown Throwable thrown) {
        if (!first || thrown == null || "getInputStream".equals(probe)) {
            return; // getInputStream() is ended by ResponseAdvice, on success and on failure
        }
        // connect() or getOutputStream() failed before any response: the request ends here
        ActiveSpan kept = span != null
                ? ObjectField.<ActiveSpan>named(HttpUrlConnectionPlugin.SPAN_FIELD).remove(connection) : null;
        ClientCalls.end(kept, startNanos, connection.getRequestMethod(), connection.getURL().getHost(),
                responseCode > 0 ? responseCode : 0, thrown);
    }
}
