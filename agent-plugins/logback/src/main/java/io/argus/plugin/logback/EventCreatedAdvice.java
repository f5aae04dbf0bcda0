package io.argus.plugin.logback;

import net.bytebuddy.asm.Advice;

/** Inlined at the end of {@code LoggingEvent}'s constructor: runs on the thread that logs. */
public final class EventCreatedAdvice {

    private EventCreatedAdvice() {
    }

    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(@Advice.This Object event) {
        LogbackTraceIds.capture(event);
    }
}
