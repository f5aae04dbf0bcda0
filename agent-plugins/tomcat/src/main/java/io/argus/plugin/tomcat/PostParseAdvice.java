package io.argus.plugin.tomcat;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.server.ServerCalls;
import net.bytebuddy.asm.Advice;

/**
 * Inlined into {@code CoyoteAdapter#postParseRequest(...)}, which returns {@code true} once Tomcat
 * has parsed, normalised and mapped the request and the container is about to run it. The span
 * starts here rather than in {@code service}: converting the raw URI to a String earlier would change
 * the way some Tomcat versions go on to decode it.
 *
 * <p>Starts the span (the core reads the trace headers through {@link CoyoteRequestHeaders}), which
 * stays current on this thread until {@link ServiceAdvice}'s exit, and records the method and path on
 * the coyote request for the end of the request: an untraced request only where they are real fields;
 * otherwise its end reads them from the coyote request again, which Tomcat recycles only after
 * {@code service} returns. {@code RewriteValve} may call this method again
 * for the same request; only the first call counts.
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
        if (!mapped || TomcatFields.REQUEST_PATH.get(req) != null) {
            return;
        }
        String method = req.method().toString();
        String path = req.requestURI().toString();
        ActiveSpan span = ServerCalls.start(method, path, req, CoyoteRequestHeaders.INSTANCE);
        if (span != null) {
            TomcatFields.REQUEST_METHOD.set(req, method);
            TomcatFields.REQUEST_PATH.set(req, path);
            TomcatFields.REQUEST_SPAN.set(req, span);
        } else if (TomcatFields.REQUEST_METHOD.setIfRealField(req, method)) {
            TomcatFields.REQUEST_PATH.set(req, path);
        }
    }
}
