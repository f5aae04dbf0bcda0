package io.argus.plugin.log4j2;

import net.bytebuddy.asm.Advice;
import org.apache.logging.log4j.util.StringMap;

/**
 * Inlined at the end of {@code ContextDataInjector.injectContextData(List<Property>, StringMap)}:
 * called once per event, on the thread that logs, before the event is handed to any appender.
 */
public final class InjectContextDataAdvice {

    private InjectContextDataAdvice() {
    }

    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(@Advice.Argument(1) StringMap reusable,
                            @Advice.Return(readOnly = false) StringMap injected) {
        injected = Log4j2TraceIds.withTraceIds(reusable, injected);
    }
}
