package io.argus.plugin.lettuce;

import net.bytebuddy.asm.Advice;

/** {@code Command.cancel()}: a synchronous call that timed out cancels its command, as may the application. */
public final class CancelAdvice {

    private CancelAdvice() {
    }

    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(@Advice.This Object command) {
        LettuceCommands.completed(command, LettuceCommands.CANCELLED);
    }
}
