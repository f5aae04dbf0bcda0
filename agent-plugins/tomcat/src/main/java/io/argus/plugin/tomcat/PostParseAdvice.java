package io.argus.plugin.tomcat;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.Argus;
import net.bytebuddy.asm.Advice;

/**
 * Inlined into {@code CoyoteAdapter#postParseRequest(...)}, which returns {@code true} once Tomcat
 * has parsed, normalised and mapped the request and the container is about to run it. The span
 * starts here rather than in {@code service}: converting the raw URI to a String earlier would change
 * the way some Tomcat versions go on to decode it.
 *
 * <p>Reads the trace headers (traceparent; tracestate only with it; b3 only without it; the
 * X-B3-* headers only without either), records the method and path in notes for the end of the
 * request, and starts the span, which stays current on this thread until {@link ServiceAdvice}'s exit.
 * {@code RewriteValve} may call this method again for the same request; only the first call counts.
 *
 * <p>Untraced requests allocate nothing here beyond what Tomcat caches for the application: absent
 * headers are a scan of Tomcat's header array, and the method and path are the Strings that Tomcat's
 * {@code getMethod()} and {@code getRequestURI()} also produce (see README.md).
 */
public final class PostParseAdvice {

    private PostParseAdvice() {
    }

    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(@Advice.Argument(0) org.apache.coyote.Request req, @Advice.Return boolean mapped) {
        if (!mapped || req.getNote(Notes.PATH) != null) {
            return;
        }
        String method = req.method().toString();
        String path = req.requestURI().toString();
        req.setNote(Notes.METHOD, method);
        req.setNote(Notes.PATH, path);
        String traceparent = req.getHeader("traceparent");
        String tracestate = null;
        String b3 = null;
        if (traceparent != null) {
            tracestate = req.getHeader("tracestate");
        } else {
            b3 = req.getHeader("b3");
            if (b3 == null) {
                String traceId = req.getHeader("X-B3-TraceId");
                if (traceId != null) {
                    b3 = Argus.b3Multi(traceId, req.getHeader("X-B3-SpanId"), req.getHeader("X-B3-Sampled"));
                }
            }
        }
        ActiveSpan span = Argus.serverStart(method, path, traceparent, tracestate, b3);
        if (span != null) {
            req.setNote(Notes.SPAN, span);
        }
    }
}
