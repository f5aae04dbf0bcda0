package io.argus.plugin.jdkhttp;

import io.argus.bridge.ActiveSpan;
import jdk.internal.net.http.HttpRequestImpl;
import net.bytebuddy.asm.Advice;

/**
 * Inlined into the private {@code HttpRequestImpl(URI, String, HttpRequestImpl, boolean[, Optional])}
 * constructors, which derive a request from another for a redirect or an authentication retry and
 * start it with empty system headers: the derived request gets the trace headers of the span of the
 * request it comes from (the same client span, as the user's headers are carried over to it). On
 * JDK versions where the four-argument form delegates to the five-argument one, the second run finds
 * the span already set and does nothing. Untraced: one field read.
 */
public final class DerivedRequestAdvice {

    private DerivedRequestAdvice() {
    }

    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(@Advice.This HttpRequestImpl derived, @Advice.Argument(2) HttpRequestImpl from) {
        ActiveSpan span = JdkHttpFields.REQUEST_SPAN.get(from);
        if (span != null && JdkHttpFields.REQUEST_SPAN.get(derived) == null) {
            JdkHttpFields.REQUEST_SPAN.set(derived, span);
            derived.setSystemHeader("traceparent", span.traceparent());
            String tracestate = span.tracestate();
            if (tracestate != null) {
                derived.setSystemHeader("tracestate", tracestate);
            }
        }
    }
}
