package io.argus.plugin.redisson;

import net.bytebuddy.asm.Advice;

/** {@code RedisExecutor.checkAttemptPromise(attempt, connection)}: the attempt has its reply, error or timeout. */
public final class AttemptEndAdvice {

    private AttemptEndAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.This Object executor, @Advice.FieldValue("command") Object command,
                             @Advice.Argument(0) Object attempt) {
        RedissonCalls.attemptEnded(executor, command, attempt);
    }
}
