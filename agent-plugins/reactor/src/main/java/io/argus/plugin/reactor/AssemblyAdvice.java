package io.argus.plugin.reactor;

import net.bytebuddy.asm.Advice;

/** Inlined into {@code Flux.onAssembly} and {@code Mono.onAssembly}: registers Reactor's hooks once (a volatile read after that). */
public final class AssemblyAdvice {

    private AssemblyAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter() {
        ReactorContext.ensureRegistered();
    }
}
