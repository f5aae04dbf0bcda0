package io.argus.plugin.tomcat;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.context.TraceContext;
import net.bytebuddy.asm.Advice;

/**
 * Inlined into {@code CoyoteAdapter#service(org.apache.coyote.Request, org.apache.coyote.Response)},
 * which the connector calls once per request on the thread that processes it.
 *
 * <p>Enter clears this plugin's fields (they survive Tomcat's recycling) and takes the start time;
 * {@link PostParseAdvice} starts the span inside. On exit, a request that is not async is complete:
 * Tomcat has finished the response and recycled the catalina request, and writes its access log at
 * this very point. It is recorded with the coyote response's final status. A request that went
 * async keeps its start time on the coyote request, its span leaves this thread, and
 * {@link AsyncDispatchAdvice} ends it.
 *
 * <p>Untraced, synchronous requests allocate nothing here: the start time is an advice local, the
 * state is fields of the coyote request Tomcat allocated once, and {@code isAsync()} of a recycled
 * request is a null check.
 */
public final class ServiceAdvice {

    private ServiceAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static long enter(@Advice.Argument(0) org.apache.coyote.Request req) {
        TomcatFields.clear(req);
        return System.nanoTime();
    }

    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    public static void exit(@Advice.Argument(0) org.apache.coyote.Request req,
                            @Advice.Argument(1) org.apache.coyote.Response res,
                            @Advice.Enter long startNanos,
                            @Advice.Thrown Throwable thrown) {
        if (RequestEnd.stillAsync(req, thrown)) {
            // Still inside the request's first dispatch: its completion cannot run before this is set.
            TomcatFields.REQUEST_START.set(req, startNanos);
            ActiveSpan span = TomcatFields.REQUEST_SPAN.get(req);
            if (span != null) {
                TraceContext.detach(span);
            }
            return;
        }
        RequestEnd.end(req, res, startNanos, thrown);
    }
}
