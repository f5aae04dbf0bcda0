package io.argus.plugin.tomcat;

import net.bytebuddy.asm.Advice;
import org.apache.catalina.connector.Request;

/**
 * Inlined into {@code StandardWrapperValve#exception(Request, Response, Throwable[, int])}, which
 * Tomcat calls when a servlet or filter threw (it then sets status 500). For a traced request the
 * exception is kept on the coyote request, so that the span carries it; nothing happens for others.
 */
public final class WrapperExceptionAdvice {

    private WrapperExceptionAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.Argument(0) Request request, @Advice.Argument(2) Throwable exception) {
        org.apache.coyote.Request req = request.getCoyoteRequest();
        if (exception != null && req != null && TomcatFields.REQUEST_SPAN.get(req) != null) {
            TomcatFields.REQUEST_ERROR.set(req, exception);
        }
    }
}
