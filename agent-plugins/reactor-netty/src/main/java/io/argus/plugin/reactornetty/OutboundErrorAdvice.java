package io.argus.plugin.reactornetty;

import net.bytebuddy.asm.Advice;

/** Inlined into {@code HttpClientOperations.onOutboundError(Throwable)}: the request could not be sent. */
public final class OutboundErrorAdvice {

    private OutboundErrorAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.This Object operations, @Advice.Argument(0) Throwable error) {
        ReactorNettyCalls.failed(operations, error);
    }
}
