package io.argus.plugin.jetty.v12;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.server.ServerCalls;
import io.argus.plugin.jetty.JettyFields;
import net.bytebuddy.asm.Advice;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;

/**
 * Inlined into {@code org.eclipse.jetty.server.internal.HttpChannelState#completeStream(HttpStream,
 * Throwable)} (Jetty 12.0.x since the method moved there, and 12.1.x): called exactly once per
 * request, when the handler's callback has completed and the last write is done, on whichever thread
 * did that; Jetty writes its request log from the same method. Runs before the stream is released,
 * so the request and response are still intact.
 *
 * <p>The start time is Jetty's own {@code Request#getBeginNanoTime()}, so an untraced request needs
 * no state of its own: one field read, a few of Jetty's, and the bridge call.
 */
public final class CompleteStreamAdvice {

    private CompleteStreamAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.FieldValue("_request") Request request,
                             @Advice.FieldValue("_response") Response response,
                             @Advice.Argument(1) Throwable failure) {
        if (request != null && response != null) {
            RequestCompletion.end(request, response, failure);
        }
    }
}
