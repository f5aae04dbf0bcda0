package io.argus.plugin.redisson;

import net.bytebuddy.asm.Advice;

/** {@code RedisCommonBatchExecutor.sendCommand(attempt, connection)}: a batch's commands go out together. */
public final class BatchSendAdvice {

    private BatchSendAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.This Object executor, @Advice.Argument(1) Object connection) {
        RedissonCalls.batchSent(executor, connection);
    }
}
