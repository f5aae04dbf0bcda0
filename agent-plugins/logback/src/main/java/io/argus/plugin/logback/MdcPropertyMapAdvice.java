package io.argus.plugin.logback;

import net.bytebuddy.asm.Advice;

import java.util.Map;

/**
 * Inlined at the end of {@code LoggingEvent.getMDCPropertyMap()}, which every MDC reader of the event
 * goes through ({@code %X}, encoders, {@code prepareForDeferredProcessing} of async appenders). The
 * map with the ids replaces the event's own, so later reads return it as is.
 */
public final class MdcPropertyMapAdvice {

    private MdcPropertyMapAdvice() {
    }

    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(@Advice.This Object event,
                            @Advice.Return(readOnly = false) Map<String, String> mdc,
                            @Advice.FieldValue(value = "mdcPropertyMap", readOnly = false) Map<String, String> eventMdc) {
        Map<String, String> withIds = LogbackTraceIds.withTraceIds(event, mdc);
        if (withIds != mdc) {
            eventMdc = withIds;
            mdc = withIds;
        }
    }
}
