package io.argus.plugin.tomcat;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.context.TraceContext;
import net.bytebuddy.asm.Advice;

/**
 * Inlined into {@code CoyoteAdapter#asyncDispatch(coyote Request, coyote Response, SocketEvent)}:
 * Tomcat runs every later event of an async request here ({@code AsyncContext.dispatch()}, a
 * {@code complete()} from another thread, a timeout, an error, non-blocking I/O). While it runs, the
 * span of a traced request is current on this thread. When it returns with the request no longer
 * async, the request is complete (Tomcat has recycled it and written its access log) and is recorded
 * with the final status, once: the start time is cleared.
 */
public final class AsyncDispatchAdvice {

    private AsyncDispatchAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static Object enter(@Advice.Argument(0) org.apache.coyote.Request req,
                               @Advice.Local("argusAttached") boolean attached) {
        ActiveSpan span = TomcatFields.REQUEST_SPAN.get(req);
        if (span != null) {
            attached = true;
            return TraceContext.attach(span);
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
            TraceContext.restore(previous);
        }
        long start = TomcatFields.REQUEST_START.get(req);
        if (start == 0 || RequestEnd.stillAsync(req, thrown)) {
            return;
        }
        TomcatFields.REQUEST_START.set(req, 0);
        RequestEnd.end(req, res, start, thrown);
    }
}
