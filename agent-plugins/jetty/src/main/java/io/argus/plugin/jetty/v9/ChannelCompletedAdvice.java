package io.argus.plugin.jetty.v9;

import io.argus.bridge.server.ServerCalls;
import io.argus.plugin.jetty.JettyFields;
import net.bytebuddy.asm.Advice;
import org.eclipse.jetty.server.HttpChannel;
import org.eclipse.jetty.server.Request;

/**
 * Inlined into Jetty 9.4 {@code org.eclipse.jetty.server.HttpChannel#onCompleted()}: the response is
 * complete (Jetty writes its request log here), on whichever thread completed it. Only requests that
 * went async carry the state {@link ServerHandleAdvice} left; for all others this is one field read.
 */
public final class ChannelCompletedAdvice {

    private ChannelCompletedAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.This HttpChannel channel) {
        Request request = channel.getRequest();
        long start = JettyFields.REQUEST_START.remove(request);
        if (start == 0) {
            return;
        }
        Object error = request.getAttribute("javax.servlet.error.exception");
        ServerCalls.end(JettyFields.REQUEST_SPAN.remove(request), start, request.getMethod(), request.getRequestURI(),
                channel.getResponse().getStatus(), error instanceof Throwable ? (Throwable) error : null);
    }
}
