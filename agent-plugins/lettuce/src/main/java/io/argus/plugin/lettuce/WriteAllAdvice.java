package io.argus.plugin.lettuce;

import net.bytebuddy.asm.Advice;

import java.util.Collection;

/** {@code DefaultEndpoint.write(Collection)}: a batch of commands (Lettuce's command batching), each started. */
public final class WriteAllAdvice {

    private WriteAllAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.This Object endpoint, @Advice.FieldValue("channel") Object channel,
                             @Advice.Argument(0) Collection<?> commands) {
        LettuceCommands.writtenAll(endpoint, channel, commands);
    }
}
