package io.argus.plugin.okhttp;

import io.argus.core.plugin.ArgusPlugin;
import io.argus.core.plugin.Probes;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.matcher.ElementMatcher;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * Client spans, W3C trace context propagation and HTTP client metrics for OkHttp 3.12+, 4.x and 5.x.
 *
 * <p>The hook for both {@code Call.execute()} and {@code Call.enqueue(Callback)} is
 * {@code RealInterceptorChain.proceed(Request)} on the chain whose {@code index} is 0. OkHttp builds that
 * chain in exactly one place, {@code RealCall.getResponseWithInterceptorChain()}, which both
 * {@code RealCall.execute()} and the dispatcher's {@code AsyncCall} call once per call; every later chain
 * (index 1, 2, ...) is made by {@code proceed} itself for the next interceptor, so an interceptor
 * that calls {@code proceed} again, retries and redirects are never counted twice (verified with
 * {@code javap -c -p} on 3.12.0, 3.14.9, 4.12.0 and 5.3.2; see README.md). It is also the one place where
 * the request can be swapped: {@code Request} is immutable and {@code RealCall.originalRequest} is
 * final, but the argument of {@code proceed} is what the interceptors, and finally the network, get.
 * For an asynchronous call {@code proceed} returns on the dispatcher thread just before the callback
 * gets the response (or the failure), which is where the span ends.
 *
 * <p>{@code enqueue} runs the call on a dispatcher thread, where the caller's context is not current.
 * {@code RealCall.enqueue(Callback)} (3.x: {@code okhttp3.RealCall}; 4.x and 5.x:
 * {@code okhttp3.internal.connection.RealCall}) runs on the caller's thread: a traced caller's callback
 * is replaced by a {@code ContextCallback} (a helper class defined in OkHttp's loader) carrying the
 * caller's context and forwarding to it, which the {@code RealCall$AsyncCall} that
 * {@code enqueue} creates keeps in its {@code responseCallback} field. Its {@code execute()} (3.x) /
 * {@code run()} (4.x, 5.x) reads that field and makes the context current on the dispatcher thread for
 * the call, callback included, and restores the thread afterwards. An untraced call costs that field
 * read and a type check there, and no look-up anywhere.
 */
public final class OkHttpPlugin implements ArgusPlugin {

    static final String CHAIN = "okhttp3.internal.http.RealInterceptorChain";
    static final String CALL_3 = "okhttp3.RealCall";
    static final String ASYNC_CALL_3 = "okhttp3.RealCall$AsyncCall";
    static final String CALL_4 = "okhttp3.internal.connection.RealCall";
    static final String ASYNC_CALL_4 = "okhttp3.internal.connection.RealCall$AsyncCall";
    private static final String ADVICE = "io.argus.plugin.okhttp.";
    private static final String CONTEXT_CALLBACK = ADVICE + "ContextCallback";
    private static final String REQUEST_HEADERS = ADVICE + "RequestHeaders";
    private static final String TRACED_REQUESTS = ADVICE + "TracedRequests";
    private static final ElementMatcher.Junction<MethodDescription> ENQUEUE =
            named("enqueue").and(takesArguments(1)).and(takesArgument(0, named("okhttp3.Callback")));

    @Override
    public String name() {
        return "okhttp";
    }

    @Override
    public void instrument(Probes probes) {
        probes.type(CHAIN).helpers(REQUEST_HEADERS, TRACED_REQUESTS)
                .advise(named("proceed").and(takesArguments(1)).and(takesArgument(0, named("okhttp3.Request"))),
                        ADVICE + "ChainProceedAdvice");
        // the enqueue and run advice name the ContextCallback helper, defined in OkHttp's loader first
        probes.type(CALL_3).helpers(CONTEXT_CALLBACK)
                .advise(ENQUEUE, ADVICE + "EnqueueAdvice");
        probes.type(CALL_4).helpers(CONTEXT_CALLBACK)
                .advise(ENQUEUE, ADVICE + "EnqueueAdvice");
        // 3.x: AsyncCall extends NamedRunnable, whose run() calls execute(); 4.x/5.x: AsyncCall.run()
        probes.type(ASYNC_CALL_3).helpers(CONTEXT_CALLBACK)
                .advise(named("execute").and(takesArguments(0)), ADVICE + "AsyncCallRunAdvice");
        probes.type(ASYNC_CALL_4).helpers(CONTEXT_CALLBACK)
                .advise(named("run").and(takesArguments(0)), ADVICE + "AsyncCallRunAdvice");
    }
}
