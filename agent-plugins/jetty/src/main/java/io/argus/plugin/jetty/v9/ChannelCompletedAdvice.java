package io.argus.plugin.jetty.v9;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.Argus;
import net.bytebuddy.asm.Advice;
import org.eclipse.jetty.server.HttpChannel;
import org.eclipse.jetty.server.Request;

/**
 * Inlined into Jetty 9.4 {@code org.eclipse.jetty.server.HttpChannel#onCompleted()}: the response is
 * complete (Jetty writes its request log here), on whichever thread completed it. Only requests that
 * went async carry the attributes {@link ServerHandleAdvice} left; for all others this is one
 * attribute look-up.
 */
public final class ChannelCompletedAdvice {

    private ChannelCompletedAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.This HttpChannel channel) {
        Request request = channel.getRequest();
        Object start = request.getAttribute("io.argus.jetty.start");
        if (!(start instanceof Long)) {
            return;
        }
        Object span = request.getAttribute("io.argus.jetty.span");
        request.removeAttribute("io.argus.jetty.start");
        if (span != null) {
            request.removeAttribute("io.argus.jetty.span");
        }
        Object error = request.getAttribute("javax.servlet.error.exception");
        Argus.serverEnd(span instanceof ActiveSpan ? (ActiveSpan) span : null, ((Long) start).longValue(),
                request.getMethod(), request.getRequestURI(), channel.getResponse().getStatus(),
                error instanceof Throwable ? (Throwable) error : null);
    }
}
