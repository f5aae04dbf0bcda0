package io.argus.core.instrument.checked;

import net.bytebuddy.asm.Advice;

public final class GreetAdvice {
    private GreetAdvice() {
    }

    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(@Advice.Return(readOnly = false) String greeting) {
        greeting = greeting + " advised";
    }
}
