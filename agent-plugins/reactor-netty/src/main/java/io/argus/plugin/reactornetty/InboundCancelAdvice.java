package io.argus.plugin.reactornetty;

import net.bytebuddy.asm.Advice;

/**
 * Inlined into {@code HttpClientOperations.onInboundCancel()}: the application stopped listening before the response
 * completed (a timeout, a {@code Mono.zip} whose other source failed).
 */
public final class InboundCancelAdvice {

    private InboundCancelAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.This Object operations) {
        ReactorNettyCalls.cancelled(operations);
    }
}
