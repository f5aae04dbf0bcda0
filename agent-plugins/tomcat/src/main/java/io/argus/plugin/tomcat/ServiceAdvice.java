package io.argus.plugin.tomcat;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.Argus;
import net.bytebuddy.asm.Advice;
import org.apache.catalina.connector.Request;

/**
 * Inlined into {@code CoyoteAdapter#service(org.apache.coyote.Request, org.apache.coyote.Response)},
 * which the connector calls once per request on the thread that processes it.
 *
 * <p>Enter clears this plugin's notes (they survive Tomcat's recycling) and takes the start time;
 * {@link PostParseAdvice} starts the span inside. On exit, a request that is not async is complete:
 * Tomcat has finished the response and recycled the catalina request, and writes its access log at
 * this very point. It is recorded with the coyote response's final status. A request that went
 * async keeps its start time in a note, its span leaves this thread, and {@link AsyncDispatchAdvice}
 * ends it.
 *
 * <p>Untraced, synchronous requests allocate nothing here: the start time is an advice local, the
 * notes are slots of an array Tomcat allocated once, and {@code isAsync()} of a recycled request
 * is a null check.
 */
public final class ServiceAdvice {

    private ServiceAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static long enter(@Advice.Argument(0) org.apache.coyote.Request req) {
        req.setNote(Notes.SPAN, null);
        req.setNote(Notes.PATH, null);
        req.setNote(Notes.METHOD, null);
        req.setNote(Notes.START, null);
        req.setNote(Notes.ERROR, null);
        return System.nanoTime();
    }

    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    public static void exit(@Advice.Argument(0) org.apache.coyote.Request req,
                            @Advice.Argument(1) org.apache.coyote.Response res,
                            @Advice.Enter long startNanos,
                            @Advice.Thrown Throwable thrown) {
        Object spanNote = req.getNote(Notes.SPAN);
        ActiveSpan span = spanNote instanceof ActiveSpan ? (ActiveSpan) spanNote : null;
        Object adapterNote = req.getNote(Notes.ADAPTER);
        if (thrown == null && adapterNote instanceof Request && ((Request) adapterNote).isAsync()) {
            // Still inside the request's first dispatch: its completion cannot run before this note is set.
            req.setNote(Notes.START, Long.valueOf(startNanos));
            if (span != null) {
                Argus.detach(span);
            }
            return;
        }
        Object method = req.getNote(Notes.METHOD);
        Object path = req.getNote(Notes.PATH);
        Object error = req.getNote(Notes.ERROR);
        req.setNote(Notes.SPAN, null);
        req.setNote(Notes.ERROR, null);
        Argus.serverEnd(span, startNanos,
                method instanceof String ? (String) method : req.method().toString(),
                path instanceof String ? (String) path : req.requestURI().toString(),
                res.getStatus(), error instanceof Throwable ? (Throwable) error : thrown);
    }
}
