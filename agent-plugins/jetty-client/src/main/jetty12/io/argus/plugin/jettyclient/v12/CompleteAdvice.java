package io.argus.plugin.jettyclient.v12;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.Argus;
import net.bytebuddy.asm.Advice;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.client.Result;
import org.eclipse.jetty.client.transport.HttpRequest;

import java.util.Map;

/**
 * Inlined at the start of Jetty 12's {@code ResponseListeners#notifyComplete(Result)}, where every
 * exchange's completion is delivered to the complete listeners ({@code HttpReceiver} when the
 * response ends, {@code HttpSender} when the request ends last, {@code HttpExchange} on abort), on
 * whichever thread completed it, before the listeners run. Same as the 9.4 advice: takes the
 * {@code io.argus.jetty.client} attribute and calls {@code Argus.clientEnd} once per request.
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
