package io.argus.plugin.lettuce;

import net.bytebuddy.asm.Advice;

/** {@code DefaultEndpoint.write(RedisCommand)}, on the caller's thread: the command starts. */
public final class WriteAdvice {

    private WriteAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.This Object endpoint, @Advice.FieldValue("channel") Object channel,
                             @Advice.Argument(0) Object command) {
        LettuceCommands.written(endpoint, channel, command);
    }
}
