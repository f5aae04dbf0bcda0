package io.argus.core.instrument.checked;

import net.bytebuddy.asm.Advice;

/** Lacks suppress = Throwable.class, so the engine refuses it. */
public final class UnsuppressedAdvice {
    private UnsuppressedAdvice() {
    }

    @Advice.OnMethodExit
    public static void exit(@Advice.Return(readOnly = false) int value) {
        value = 42;
    }
}
