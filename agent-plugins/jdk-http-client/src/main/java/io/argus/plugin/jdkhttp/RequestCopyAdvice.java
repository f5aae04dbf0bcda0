package io.argus.plugin.jdkhttp;

import io.argus.bridge.ActiveSpan;
import jdk.internal.net.http.HttpRequestImpl;
import net.bytebuddy.asm.Advice;

import java.net.http.HttpRequest;

/**
 * Inlined into the constructor {@code jdk.internal.net.http.HttpRequestImpl(HttpRequest, ProxySelector)},
 * where the JDK copies the user's request into its own, once per call, on the calling thread. For a
 * traced call (the request is a {@link TracedHttpRequest}) it sets {@code traceparent} and
 * {@code tracestate} as system headers of the copy (the JDK writes system headers next to the user's,
 * on HTTP/1.1 and HTTP/2 alike), and keeps the span on the copy for the requests the JDK derives
 * from it for redirects and authentication ({@link DerivedRequestAdvice}). Untraced: a type check.
 *
 * <p>Compiled against {@code jdk.internal.net.http} (see pom.xml): the code runs inside
 * {@code HttpRequestImpl} itself, where the public {@code setSystemHeader} is its own method.
 */
public final class RequestCopyAdvice {

    private RequestCopyAdvice() {
    }

    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(@Advice.This HttpRequestImpl copy, @Advice.Argument(0) HttpRequest request) {
        if (request instanceof TracedHttpRequest) {
            ActiveSpan span = ((TracedHttpRequest) request).span();
            JdkHttpFields.REQUEST_SPAN.set(copy, span);
            copy.setSystemHeader("traceparent", span.traceparent());
            String tracestate = span.tracestate();
            if (tracestate != null) {
                copy.setSystemHeader("tracestate", tracestate);
            }
        }
    }
}
