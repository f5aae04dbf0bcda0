package io.argus.plugin.urlconnection;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.client.ClientCalls;
import io.argus.bridge.context.TraceContext;
import io.argus.bridge.state.ObjectField;
import net.bytebuddy.asm.Advice;

import java.io.InputStream;
import java.net.HttpURLConnection;

/**
 * Inlined into the private {@code sun.net.www.protocol.http.HttpURLConnection#getInputStream0()},
 * where the JDK writes the request, follows redirects and authentication challenges, and reads the
 * response status, all within one call.
 *
 * <p>Only the call that performs the exchange counts: one that finds the response stream, a
 * remembered failure, or a cached response already there returns without network I/O. That is how
 * the nested calls are told apart ({@code getResponseCode()} calls {@code getInputStream()};
 * {@code getInputStream0()} itself calls {@code getResponseCode()} after setting the stream), with
 * no depth counter.
 *
 * <p>On exit the metric is recorded once, with the status the JDK parsed. A status of 400 or more
 * arrives as a {@code FileNotFoundException} / {@code IOException} from {@code getInputStream()};
 * that is the HTTP outcome, not a transport failure, so it is recorded as the status alone. The span,
 * if the request is traced, is taken off the connection and ended. Whether to look for one is decided
 * without reading the field on untraced calls (on a connection class loaded before the agent it
 * lives in a map): a traced request carries the {@code traceparent} property the
 * start advice set (the look-up scans the connection's few request headers and allocates nothing),
 * and a sampled current span covers the POST-to-GET redirect, which clears all request properties.
 */
public final class ResponseAdvice {

    private ResponseAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.FieldValue("doInput") boolean doInput,
                             @Advice.FieldValue("inputStream") InputStream inputStream,
                             @Advice.FieldValue("cachedInputStream") InputStream cachedInputStream,
                             @Advice.FieldValue("rememberedException") Exception rememberedException,
                             @Advice.Local("argusExchange") boolean exchange,
                             @Advice.Local("argusStartNanos") long startNanos) {
        if (doInput && inputStream == null && cachedInputStream == null && rememberedException == null) {
            exchange = true;
            startNanos = System.nanoTime();
        }
    }

    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    public static void exit(@Advice.This HttpURLConnection connection,
                            @Advice.Local("argusExchange") boolean exchange,
                            @Advice.Local("argusStartNanos") long startNanos,
                            @Advice.FieldValue("responseCode") int responseCode,
                            @Advice.FieldValue("cachedInputStream") InputStream cachedInputStream,
                            @Advice.Thrown Throwable thrown) {
        if (!exchange) {
            return;
        }
        int status = responseCode;
        if (status <= 0 && thrown == null && cachedInputStream != null) {
            // served by a java.net.ResponseCache: the status is parsed on demand. The nested
            // getInputStream0() finds the cached stream and is not an exchange, so this cannot recurse.
            try {
                status = connection.getResponseCode();
            } catch (Exception unknown) {
                status = 0;
            }
        }
        Throwable error = thrown != null && status >= 400 ? null : thrown;
        ActiveSpan span = null;
        if (TraceContext.current() != null || connection.getRequestProperty("traceparent") != null) {
            span = ObjectField.<ActiveSpan>named(HttpUrlConnectionPlugin.SPAN_FIELD).remove(connection);
        }
        ClientCalls.end(span, startNanos, connection.getRequestMethod(), connection.getURL().getHost(),
                status > 0 ? status : 0, error);
    }
}
