package io.argus.plugin.reactornetty;

import net.bytebuddy.asm.Advice;

/**
 * Inlined into {@code HttpClientHandler.test(Throwable)}, the filter every error of a subscription goes through before
 * Reactor Netty decides to retry: a connection that could not be made ends a call that never sent its request
 * ({@link ReactorNettyCalls#connectFailed}). Other errors cost an {@code instanceof} check or two.
 */
public final class ConnectFailedAdvice {

    private ConnectFailedAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.This Object handler, @Advice.Argument(0) Throwable error,
                             @Advice.FieldValue("method") Object method) {
        if (error instanceof java.net.ConnectException || error instanceof java.net.UnknownHostException) {
            ReactorNettyCalls.connectFailed(handler, method, error);
        }
    }
}
