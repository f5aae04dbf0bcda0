package io.argus.plugin.jetty.v9;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.context.TraceContext;
import io.argus.bridge.server.ServerCalls;
import io.argus.plugin.jetty.JettyFields;
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
 * keeps its start time (and its span, if traced) on the request, leaves the span's context on this
 * thread, and is finished by {@link ChannelCompletedAdvice}.
 */
public final class ServerHandleAdvice {

    private ServerHandleAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static ActiveSpan enter(@Advice.Argument(0) HttpChannel channel,
                                   @Advice.Local("argusStartNanos") long startNanos) {
        startNanos = System.nanoTime();
        Request request = channel.getRequest();
        return ServerCalls.start(request.getMethod(), request.getRequestURI(), startNanos, request, RequestHeaders.INSTANCE);
    }

    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    public static void exit(@Advice.Argument(0) HttpChannel channel,
                            @Advice.Enter ActiveSpan span,
                            @Advice.Local("argusStartNanos") long startNanos,
                            @Advice.Thrown Throwable thrown) {
        Request request = channel.getRequest();
        if (request.isAsyncStarted()) {
            // Still inside the dispatch: the completion cannot run before this state is set.
            JettyFields.REQUEST_START.set(request, startNanos);
            if (span != null) {
                JettyFields.REQUEST_SPAN.set(request, span);
                TraceContext.detach(span);
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
        ServerCalls.end(span, startNanos, request.getMethod(), request.getRequestURI(), status, thrown);
    }
}
