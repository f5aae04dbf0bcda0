package io.argus.plugin.jetty.v9;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.Argus;
import net.bytebuddy.asm.Advice;
import org.eclipse.jetty.server.HttpChannel;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;

/**
 * Inlined into Jetty 9.4 {@code org.eclipse.jetty.server.Server#handle(HttpChannel)}, which runs once
 * per request on the thread that handles it (async re-dispatches go to {@code handleAsync}).
 *
 * <p>A request that did not start async is finished when the method returns: its status is final
 * then, except for the two fix-ups Jetty applies right after, which are mirrored here (an exception
 * becomes a 500 and an unhandled request a 404 unless the response was committed). An async request
 * keeps its start time (and its span, if traced) in request attributes, leaves the span's context on
 * this thread, and is finished by {@link ChannelCompletedAdvice}.
 *
 * <p>Untraced synchronous requests allocate nothing here: the start time lives in an advice local.
 * Advice code runs inside Jetty's class loader and may only use the bridge, the JDK and Jetty.
 */
public final class ServerHandleAdvice {

    private ServerHandleAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static ActiveSpan enter(@Advice.Argument(0) HttpChannel channel,
                                   @Advice.Local("argusStartNanos") long startNanos) {
        startNanos = System.nanoTime();
        Request request = channel.getRequest();
        String traceparent = request.getHeader("traceparent");
        String tracestate = null;
        String b3 = null;
        if (traceparent != null) {
            tracestate = request.getHeader("tracestate");
        } else {
            b3 = request.getHeader("b3");
            if (b3 == null) {
                String traceId = request.getHeader("X-B3-TraceId");
                if (traceId != null) {
                    b3 = Argus.b3Multi(traceId, request.getHeader("X-B3-SpanId"), request.getHeader("X-B3-Sampled"));
                }
            }
        }
        return Argus.serverStart(request.getMethod(), request.getRequestURI(), traceparent, tracestate, b3);
    }

    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    public static void exit(@Advice.Argument(0) HttpChannel channel,
                            @Advice.Enter ActiveSpan span,
                            @Advice.Local("argusStartNanos") long startNanos,
                            @Advice.Thrown Throwable thrown) {
        Request request = channel.getRequest();
        if (request.isAsyncStarted()) {
            // Still inside the dispatch: the completion cannot run before these attributes are set.
            request.setAttribute("io.argus.jetty.start", Long.valueOf(startNanos));
            if (span != null) {
                request.setAttribute("io.argus.jetty.span", span);
                Argus.detach(span);
            }
            return;
        }
        Response response = channel.getResponse();
        int status;
        if (response.isCommitted()) {
            status = response.getStatus();
        } else if (thrown != null) {
            status = 500;
        } else if (!request.isHandled()) {
            status = 404;
        } else {
            status = response.getStatus();
        }
        Argus.serverEnd(span, startNanos, request.getMethod(), request.getRequestURI(), status, thrown);
    }
}
