package io.argus.plugin.jetty.v12;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.Argus;
import net.bytebuddy.asm.Advice;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.internal.HttpChannelState;

/**
 * The same as {@link CompleteStreamAdvice} for early Jetty 12.0.x, where {@code completeStream} is a
 * method of the inner class {@code HttpChannelState$HandlerInvoker}: the request and response are
 * read through the enclosing channel.
 */
public final class InvokerCompleteStreamAdvice {

    private InvokerCompleteStreamAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.FieldValue("this$0") HttpChannelState channel,
                             @Advice.Argument(1) Throwable failure) {
        Request request = channel.getRequest();
        Response response = channel.getResponse();
        if (request == null || response == null) {
            return;
        }
        ActiveSpan span = null;
        Throwable error = failure;
        Object attribute = request.getAttribute("io.argus.jetty.span");
        if (attribute instanceof ActiveSpan) {
            span = (ActiveSpan) attribute;
            request.removeAttribute("io.argus.jetty.span");
            Object thrown = request.getAttribute("io.argus.jetty.error");
            if (thrown instanceof Throwable) {
                request.removeAttribute("io.argus.jetty.error");
                if (error == null) {
                    error = (Throwable) thrown;
                }
            }
        }
        Argus.serverEnd(span, request.getBeginNanoTime(), request.getMethod(), request.getHttpURI().getPath(),
                response.getStatus(), error);
    }
}
