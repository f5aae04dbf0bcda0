package io.argus.plugin.jettyclient.v9;

import io.argus.plugin.jettyclient.JettyClientCalls;
import net.bytebuddy.asm.Advice;
import org.eclipse.jetty.client.HttpRequest;
import org.eclipse.jetty.client.api.Request;
import org.eclipse.jetty.client.api.Response;
import org.eclipse.jetty.client.api.Result;

/**
 * Inlined at the start of Jetty 9.4's {@code ResponseNotifier#notifyComplete(List, Result)}, the
 * one place where every exchange's completion (response received, request or response failed,
 * aborted, timed out) is delivered to the complete listeners, on whichever thread completed it.
 * Runs before the listeners, so before a synchronous {@code send()} returns. Ends the call that
 * {@link ExchangeAdvice} kept on the request, with the response status (0 when there is no
 * response) and the failure, if any. A request that has already ended (a redirect forwards the
 * final result to the original request's listeners) has nothing kept and records nothing.
 */
public final class CompleteAdvice {

    private CompleteAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.Argument(1) Result result) {
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
