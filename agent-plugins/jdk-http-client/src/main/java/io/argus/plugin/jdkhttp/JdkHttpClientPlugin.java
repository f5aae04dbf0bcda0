package io.argus.plugin.jdkhttp;

import io.argus.core.plugin.ArgusPlugin;
import io.argus.core.plugin.Probes;

import static net.bytebuddy.matcher.ElementMatchers.isConstructor;
import static net.bytebuddy.matcher.ElementMatchers.isPrivate;
import static net.bytebuddy.matcher.ElementMatchers.isPublic;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * Client spans, W3C trace context propagation and HTTP client metrics for the JDK's
 * {@code java.net.http.HttpClient} (JDK 11+).
 *
 * <p>Both probes sit on {@code jdk.internal.net.http.HttpClientImpl}, the implementation behind
 * every client that {@code HttpClient.newHttpClient()} and {@code HttpClient.newBuilder().build()}
 * return (the public object is a thin {@code HttpClientFacade} that delegates to it):
 * <ul>
 *   <li>{@code send(HttpRequest, BodyHandler)}: the synchronous call. It calls the private
 *       {@code sendAsync(HttpRequest, BodyHandler, PushPromiseHandler, Executor)} with a
 *       {@code null} executor and waits; {@link SendAdvice} measures it from entry to return, so an
 *       untraced call needs nothing but two advice locals.</li>
 *   <li>the private four-argument {@code sendAsync}: the single choke point of every request. Both
 *       public {@code sendAsync} overloads reach it with a non-null executor; {@code send} reaches it
 *       with {@code null}. {@link SendAsyncAdvice} only acts on the non-null case, so a synchronous
 *       call is never seen twice.</li>
 * </ul>
 * Both share {@link ClientRequests}, a helper class: {@code java.net.http} is loaded by the platform
 * class loader, where helpers can be defined (unlike the boot loader).
 *
 * <p>Verified with {@code javap -c -p} on JDK 17 and Temurin 25 (see README.md).
 */
public final class JdkHttpClientPlugin implements ArgusPlugin {

    static final String CLIENT_IMPL = "jdk.internal.net.http.HttpClientImpl";
    static final String REQUEST_IMPL = "jdk.internal.net.http.HttpRequestImpl";
    private static final String ADVICE = "io.argus.plugin.jdkhttp.";

    @Override
    public String name() {
        return "jdk-http-client";
    }

    @Override
    public void instrument(Probes probes) {
        probes.field(REQUEST_IMPL, "jdk-http-client.span");
        probes.type(CLIENT_IMPL)
                .helpers(ADVICE + "JdkHttpFields", ADVICE + "TracedHttpRequest", ADVICE + "ClientRequests")
                .advise(named("send").and(isPublic()).and(takesArguments(2))
                                .and(takesArgument(0, named("java.net.http.HttpRequest"))),
                        ADVICE + "SendAdvice")
                .advise(named("sendAsync").and(isPrivate()).and(takesArguments(4))
                                .and(takesArgument(0, named("java.net.http.HttpRequest")))
                                .and(takesArgument(3, named("java.util.concurrent.Executor"))),
                        ADVICE + "SendAsyncAdvice");
        probes.type(REQUEST_IMPL)
                .helpers(ADVICE + "JdkHttpFields", ADVICE + "TracedHttpRequest")
                // the copy of the user's request
                .advise(isConstructor().and(takesArguments(2))
                                .and(takesArgument(0, named("java.net.http.HttpRequest")))
                                .and(takesArgument(1, named("java.net.ProxySelector"))),
                        ADVICE + "RequestCopyAdvice")
                // a request derived for a redirect or an authentication retry
                .advise(isConstructor().and(takesArgument(0, named("java.net.URI")))
                                .and(takesArgument(2, named(REQUEST_IMPL))),
                        ADVICE + "DerivedRequestAdvice");
    }
}
