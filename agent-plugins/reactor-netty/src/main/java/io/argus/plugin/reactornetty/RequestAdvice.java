package io.argus.plugin.reactornetty;

import net.bytebuddy.asm.Advice;

/**
 * Inlined into {@code HttpClientHandler.requestWithBody(HttpClientOperations)}, on the connection's event loop, once
 * per attempt (first try, retry, redirect): on exit the request's method, URI and default headers are set and
 * nothing is written yet, so the call starts here ({@link ReactorNettyCalls#requestPrepared}).
 */
public final class RequestAdvice {

    private RequestAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static long enter() {
        return System.nanoTime();
    }

    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(@Advice.This Object handler, @Advice.Argument(0) Object operations,
                            @Advice.Enter long startNanos) {
        ReactorNettyCalls.requestPrepared(handler, operations, startNanos);
    }
}
