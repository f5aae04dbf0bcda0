package io.argus.plugin.lettuce;

import net.bytebuddy.asm.Advice;

/** {@code Command.complete()}: the reply arrived; an error reply ({@code -ERR ...}) fails the command. */
public final class CompleteAdvice {

    private CompleteAdvice() {
    }

    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(@Advice.This Object command) {
        LettuceCommands.completed(command, null);
    }
}
