package io.argus.plugin.jettyclient.v12;

import io.argus.plugin.jettyclient.JettyClientCalls;
import net.bytebuddy.asm.Advice;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.client.Result;
import org.eclipse.jetty.client.transport.HttpRequest;

/**
 * Inlined at the start of Jetty 12's {@code ResponseListeners#notifyComplete(Result)}, where every
 * exchange's completion is delivered to the complete listeners ({@code HttpReceiver} when the
 * response ends, {@code HttpSender} when the request ends last, {@code HttpExchange} on abort), on
 * whichever thread completed it, before the listeners run. Same as the 9.4 advice: ends the call
 * kept on the request, once per request.
 */
public final class CompleteAdvice {

    private CompleteAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.Argument(0) Result result) {
        if (result == null) {
            return;
        }
        Request request = result.getRequest();
        if (!(request instanceof HttpRequest)) {
            return;
        }
        Response response = result.getResponse();
        int status = response != null ? response.getStatus() : 0;
        JettyClientCalls.completed(request, request.getMethod(), request.getHost(), status, result.getFailure());
    }
}
