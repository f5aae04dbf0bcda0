package io.argus.plugin.referencefixture;

import com.example.lib.Server;
import net.bytebuddy.asm.Advice;

public final class HandleAdvice {

    private HandleAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.This Server server) {
        server.gone();
    }
}
