package io.argus.plugin.lettuce;

import net.bytebuddy.asm.Advice;

/** {@code Command.completeExceptionally(Throwable)}: a timeout, a lost connection, an error reply. */
public final class FailAdvice {

    private FailAdvice() {
    }

    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(@Advice.This Object command, @Advice.Argument(0) Throwable error) {
        LettuceCommands.completed(command, error == null ? LettuceCommands.CANCELLED : error);
    }
}
