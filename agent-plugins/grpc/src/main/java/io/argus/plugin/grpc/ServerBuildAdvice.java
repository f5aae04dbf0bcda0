package io.argus.plugin.grpc;

import java.util.List;
import net.bytebuddy.asm.Advice;

/** Inlined into {@code ServerImplBuilder.build()}: {@link TracingServerInterceptor} last in the list, so it runs first. */
public final class ServerBuildAdvice {

    private ServerBuildAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.FieldValue("interceptors") List<Object> interceptors) {
        TracingServerInterceptor.addTo(interceptors);
    }
}
