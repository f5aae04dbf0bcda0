package io.argus.plugin.jetty.v12;

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
        if (request != null && response != null) {
            RequestCompletion.end(request, response, failure);
        }
    }
}
