package io.argus.plugin.reactornetty;

import net.bytebuddy.asm.Advice;

/** Inlined into {@code HttpClientOperations.onInboundClose()}: the connection closed before the response completed. */
public final class InboundCloseAdvice {

    private InboundCloseAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.This Object operations) {
        ReactorNettyCalls.closed(operations);
    }
}
