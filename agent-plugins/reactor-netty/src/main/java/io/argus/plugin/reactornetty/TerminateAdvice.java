package io.argus.plugin.reactornetty;

import net.bytebuddy.asm.Advice;

/**
 * Inlined into {@code ChannelOperations.terminate()}: the response's last part arrived (or the exchange ended
 * otherwise), before the receiver hears of it, so the span does not take in what the application does next. Any other
 * operations object (a server's, a TCP client's) costs a field read.
 */
public final class TerminateAdvice {

    private TerminateAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.This Object operations) {
        if (ReactorNettyCalls.HOST.get(operations) != null) {
            ReactorNettyCalls.terminated(operations);
        }
    }
}
