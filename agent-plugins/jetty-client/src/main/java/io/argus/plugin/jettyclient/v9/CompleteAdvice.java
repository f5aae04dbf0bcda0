package io.argus.plugin.jettyclient.v9;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.Argus;
import net.bytebuddy.asm.Advice;
import org.eclipse.jetty.client.HttpRequest;
import org.eclipse.jetty.client.api.Request;
import org.eclipse.jetty.client.api.Response;
import org.eclipse.jetty.client.api.Result;

import java.util.Map;

/**
 * Inlined at the start of Jetty 9.4's {@code ResponseNotifier#notifyComplete(List, Result)}, the
 * one place where every exchange's completion (response received, request or response failed,
 * aborted, timed out) is delivered to the complete listeners, on whichever thread completed it.
 * Runs before the listeners, so before a synchronous {@code send()} returns. Takes the request's
 * {@code io.argus.jetty.client} attribute (set by {@link ExchangeAdvice}) and calls
 * {@code Argus.clientEnd} with the response status (0 when there is no response) and the failure,
 * if any. A request without the attribute (already ended: a redirect forwards the final result to
 * the original request's listeners) costs one map look-up.
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
        Map<String, Object> attributes = request.getAttributes();
        Object value = attributes.get("io.argus.jetty.client");
        if (value == null) {
            return;
        }
        attributes.remove("io.argus.jetty.client");
        long startNanos;
        ActiveSpan span = null;
        if (value instanceof Long) {
            startNanos = ((Long) value).longValue();
        } else if (value instanceof Object[] && ((Object[]) value).length == 2 && ((Object[]) value)[0] instanceof Long) {
            startNanos = ((Long) ((Object[]) value)[0]).longValue();
            Object spanValue = ((Object[]) value)[1];
            span = spanValue instanceof ActiveSpan ? (ActiveSpan) spanValue : null;
        } else {
            return;
        }
        Response response = result.getResponse();
        int status = response != null ? response.getStatus() : 0;
        Argus.clientEnd(span, startNanos, request.getMethod(), request.getHost(), status, result.getFailure());
    }
}
