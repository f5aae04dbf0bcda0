package io.argus.plugin.grpc;

import java.util.List;
import net.bytebuddy.asm.Advice;

/** Inlined into {@code ManagedChannelImplBuilder.build()}: {@link TracingClientInterceptor} last, so it runs first. */
public final class ChannelBuildAdvice {

    private ChannelBuildAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.FieldValue("interceptors") List<Object> interceptors) {
        TracingClientInterceptor.addTo(interceptors);
    }
}
