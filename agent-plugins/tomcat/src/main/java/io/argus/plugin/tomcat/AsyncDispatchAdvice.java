package io.argus.plugin.tomcat;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.Argus;
import net.bytebuddy.asm.Advice;
import org.apache.catalina.connector.Request;

/**
 * Inlined into {@code CoyoteAdapter#asyncDispatch(coyote Request, coyote Response, SocketEvent)}:
 * Tomcat runs every later event of an async request here ({@code AsyncContext.dispatch()}, a
 * {@code complete()} from another thread, a timeout, an error, non-blocking I/O). While it runs, the
 * span of a traced request is current on this thread. When it returns with the request no longer
 * async, the request is complete (Tomcat has recycled it and written its access log) and is recorded
 * with the final status, once: the start note is cleared.
 */
public final class AsyncDispatchAdvice {

    private AsyncDispatchAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static Object enter(@Advice.Argument(0) org.apache.coyote.Request req,
                               @Advice.Local("argusAttached") boolean attached) {
        Object span = req.getNote(Notes.SPAN);
        if (span instanceof ActiveSpan) {
            attached = true;
            return Argus.attachContext(span);
        }
        return null;
    }

    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    public static void exit(@Advice.Argument(0) org.apache.coyote.Request req,
                            @Advice.Argument(1) org.apache.coyote.Response res,
                            @Advice.Enter Object previous,
                            @Advice.Local("argusAttached") boolean attached,
                            @Advice.Thrown Throwable thrown) {
        if (attached) {
            Argus.restoreContext(previous);
        }
        Object start = req.getNote(Notes.START);
        if (!(start instanceof Long)) {
            return;
        }
        Object adapterNote = req.getNote(Notes.ADAPTER);
        if (thrown == null && adapterNote instanceof Request && ((Request) adapterNote).isAsync()) {
            return;
        }
        Object span = req.getNote(Notes.SPAN);
        Object method = req.getNote(Notes.METHOD);
        Object path = req.getNote(Notes.PATH);
        Object error = req.getNote(Notes.ERROR);
        req.setNote(Notes.START, null);
        req.setNote(Notes.SPAN, null);
        req.setNote(Notes.ERROR, null);
        Argus.serverEnd(span instanceof ActiveSpan ? (ActiveSpan) span : null, ((Long) start).longValue(),
                method instanceof String ? (String) method : req.method().toString(),
                path instanceof String ? (String) path : req.requestURI().toString(),
                res.getStatus(), error instanceof Throwable ? (Throwable) error : thrown);
    }
}
