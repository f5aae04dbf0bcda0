package io.argus.plugin.jetty.v12;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.context.TraceContext;
import io.argus.bridge.server.ServerCalls;
import io.argus.plugin.jetty.JettyFields;
import net.bytebuddy.asm.Advice;
import org.eclipse.jetty.server.Request;

/**
 * Inlined into Jetty 12 {@code org.eclipse.jetty.server.Server#handle(Request, Response, Callback)},
 * called once per request by the channel on the handling thread. Starts the span (made current on
 * this thread while the handlers run) and, for a traced request only, keeps it on the channel's
 * request, where {@link CompleteStreamAdvice} finds it when the response is complete. When this
 * method returns the callback may still be pending (async handling): the span's context is taken off
 * this thread either way. Compiled against the oldest supported Jetty 12 API.
 */
public final class ServerHandleAdvice {

    private ServerHandleAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static ActiveSpan enter(@Advice.Argument(0) Request request) {
        // the channel's own request (customizers may have wrapped the one handed to the server), found
        // before the span starts: the span becomes current last, so nothing can fail after it
        Request channelRequest = Request.unWrap(request);
        // the span starts at Jetty's own begin time, the one the completion records the request's duration from
        ActiveSpan span = ServerCalls.start(request.getMethod(), request.getHttpURI().getPath(),
                request.getBeginNanoTime(), request, RequestHeaders.INSTANCE);
        if (span != null) {
            JettyFields.REQUEST_SPAN.set(channelRequest, span);
        }
        return span;
    }

    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    public static void exit(@Advice.Argument(0) Request request, @Advice.Enter ActiveSpan span,
                            @Advice.Thrown Throwable thrown) {
        if (span != null) {
            if (thrown != null) {
                // Jetty turns it into an error response; completeStream does not always see it (12.1)
                JettyFields.REQUEST_ERROR.set(Request.unWrap(request), thrown);
            }
            // no-op if the response already completed on this thread (ending the span restored the context)
            TraceContext.detach(span);
        }
    }
}
