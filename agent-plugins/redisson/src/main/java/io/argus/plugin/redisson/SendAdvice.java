package io.argus.plugin.redisson;

import net.bytebuddy.asm.Advice;

/** {@code RedisExecutor.sendCommand(attempt, connection)}: one attempt of a command goes out. */
public final class SendAdvice {

    private SendAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.This Object executor, @Advice.FieldValue("command") Object command,
                             @Advice.FieldValue("params") Object[] params, @Advice.Argument(1) Object connection) {
        RedissonCalls.sent(executor, command, params, connection);
    }
}
