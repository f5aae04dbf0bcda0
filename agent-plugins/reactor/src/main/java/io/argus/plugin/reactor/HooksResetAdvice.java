package io.argus.plugin.reactor;

import net.bytebuddy.asm.Advice;

/** Inlined into Reactor's hook resets: the next operator assembled registers the hooks again. */
public final class HooksResetAdvice {

    private HooksResetAdvice() {
    }

    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit() {
        ReactorContext.reset();
    }
}
