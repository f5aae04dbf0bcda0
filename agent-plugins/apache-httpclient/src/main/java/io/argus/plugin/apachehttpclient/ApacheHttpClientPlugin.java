package io.argus.plugin.apachehttpclient;

import io.argus.core.plugin.ArgusPlugin;
import io.argus.core.plugin.Probes;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.matcher.ElementMatcher;

import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * Client spans, W3C trace context propagation and HTTP client metrics for Apache HttpClient 4.3+
 * ({@code org.apache.http}) and the classic API of Apache HttpClient 5.x ({@code org.apache.hc.client5}).
 *
 * <p>Every public {@code execute(...)} overload of {@code CloseableHttpClient} (4.3+ and 5.x alike) ends
 * in one call of the protected {@code doExecute(HttpHost, request, HttpContext)}: the overloads only
 * delegate to each other and, at the bottom, to {@code doExecute}; the {@code ResponseHandler}
 * variants call {@code execute(target, request, context)} and then consume the response. So each
 * concrete {@code doExecute} is the single choke point of one request, and it is probed by exact class
 * name (verified with {@code javap -c} on 4.3, 4.5.14, 5.0 and 5.6.5; see README.md):
 * <ul>
 *   <li>4.x: {@code InternalHttpClient} ({@code HttpClients.createDefault()}, {@code HttpClientBuilder}),
 *       {@code MinimalHttpClient} ({@code HttpClients.createMinimal()}) and the deprecated
 *       {@code AbstractHttpClient} ({@code DefaultHttpClient}, {@code SystemDefaultHttpClient}), whose
 *       {@code doExecute} is final;</li>
 *   <li>5.x classic: {@code InternalHttpClient} and {@code MinimalHttpClient}.</li>
 * </ul>
 * Redirects, retries and authentication run inside the exec chain below {@code doExecute}, so they are
 * part of the one request that is measured.
 *
 * <p>The 5.x async client ({@code CloseableHttpAsyncClient}) has the same shape: every {@code execute}
 * overload ends in one {@code doExecute(HttpHost, AsyncRequestProducer, AsyncResponseConsumer,
 * HandlerFactory, HttpContext, FutureCallback)}, implemented by {@code InternalAbstractHttpAsyncClient}
 * (the default, custom and HTTP/2 clients) and {@code AbstractMinimalHttpAsyncClientBase} (the minimal
 * ones), in every release from 5.0 to 5.6. The request completes on an I/O reactor thread, so its advice
 * puts helper classes in the way of the callback, the request producer and the response consumer; the
 * engine defines them in the client's class loader ({@code TypeProbe#helpers}). Every probe writes the
 * trace headers through one {@code HeaderSetter} helper per library API ({@code v4.RequestHeaders},
 * {@code v5.RequestHeaders}).
 */
public final class ApacheHttpClientPlugin implements ArgusPlugin {

    static final String V4 = "org.apache.http.impl.client.";
    static final String V5 = "org.apache.hc.client5.http.impl.classic.";
    static final String V5_ASYNC = "org.apache.hc.client5.http.impl.async.";
    private static final String ADVICE = "io.argus.plugin.apachehttpclient.";
    /** The header setters, one per library API: 4.x's and HttpCore 5's. */
    private static final String TARGET_URL = ADVICE + "TargetUrl";
    private static final String HEADERS_4 = ADVICE + "v4.RequestHeaders";
    private static final String HEADERS_5 = ADVICE + "v5.RequestHeaders";
    /** Defined in the async client's class loader: they implement HttpCore interfaces. */
    private static final String[] ASYNC_HELPERS = {
            TARGET_URL,
            HEADERS_5,
            ADVICE + "v5.async.AsyncClientCall",
            ADVICE + "v5.async.ObservedRequestProducer",
            ADVICE + "v5.async.ObservedResponseConsumer",
    };

    @Override
    public String name() {
        return "apache-httpclient";
    }

    @Override
    public void instrument(Probes probes) {
        ElementMatcher.Junction<MethodDescription> v4 = doExecute("org.apache.http.HttpHost", "org.apache.http.HttpRequest");
        probes.type(V4 + "InternalHttpClient").helpers(TARGET_URL, HEADERS_4).advise(v4, ADVICE + "v4.DoExecuteAdvice");
        probes.type(V4 + "MinimalHttpClient").helpers(TARGET_URL, HEADERS_4).advise(v4, ADVICE + "v4.DoExecuteAdvice");
        probes.type(V4 + "AbstractHttpClient").helpers(TARGET_URL, HEADERS_4).advise(v4, ADVICE + "v4.DoExecuteAdvice");

        ElementMatcher.Junction<MethodDescription> v5 = doExecute("org.apache.hc.core5.http.HttpHost",
                "org.apache.hc.core5.http.ClassicHttpRequest");
        probes.type(V5 + "InternalHttpClient").helpers(TARGET_URL, HEADERS_5).advise(v5, ADVICE + "v5.ClassicDoExecuteAdvice");
        probes.type(V5 + "MinimalHttpClient").helpers(TARGET_URL, HEADERS_5).advise(v5, ADVICE + "v5.ClassicDoExecuteAdvice");

        ElementMatcher.Junction<MethodDescription> v5Async = named("doExecute").and(not(isAbstract()))
                .and(takesArguments(6))
                .and(takesArgument(0, named("org.apache.hc.core5.http.HttpHost")))
                .and(takesArgument(1, named("org.apache.hc.core5.http.nio.AsyncRequestProducer")))
                .and(takesArgument(2, named("org.apache.hc.core5.http.nio.AsyncResponseConsumer")))
                .and(takesArgument(5, named("org.apache.hc.core5.concurrent.FutureCallback")));
        probes.type(V5_ASYNC + "InternalAbstractHttpAsyncClient").helpers(ASYNC_HELPERS)
                .advise(v5Async, ADVICE + "v5.AsyncDoExecuteAdvice");
        probes.type(V5_ASYNC + "AbstractMinimalHttpAsyncClientBase").helpers(ASYNC_HELPERS)
                .advise(v5Async, ADVICE + "v5.AsyncDoExecuteAdvice");
    }

    private static ElementMatcher.Junction<MethodDescription> doExecute(String host, String request) {
        return named("doExecute").and(not(isAbstract())).and(takesArguments(3))
                .and(takesArgument(0, named(host)))
                .and(takesArgument(1, named(request)));
    }
}
