package io.argus.plugin.redisson;

import net.bytebuddy.asm.Advice;

/** {@code RedisExecutor.execute()}: on the caller's thread first, where the command takes its trace context. */
public final class ExecuteAdvice {

    private ExecuteAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.This Object executor) {
        RedissonCalls.executed(executor);
    }
}
