package io.argus.plugin.urlconnection;

import io.argus.core.plugin.ArgusPlugin;
import io.argus.core.plugin.Probes;

import static net.bytebuddy.matcher.ElementMatchers.isPublic;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * Client spans, W3C trace context propagation and HTTP client metrics for
 * {@code java.net.HttpURLConnection}, i.e. the JDK's {@code sun.net.www.protocol.http.HttpURLConnection}.
 * {@code HttpsURLConnection} is covered too: the JDK's {@code HttpsURLConnectionImpl} forwards every
 * call to a {@code DelegateHttpsURLConnection}, a subclass that inherits all probed methods.
 *
 * <p>One exact-name probe, two pieces of advice:
 * <ul>
 *   <li>{@link RequestStartAdvice} on {@code connect()}, {@code plainConnect()} (which the HTTPS
 *       {@code connect()} override calls), {@code getOutputStream()} and {@code getInputStream()}:
 *       the first of them on a connection starts the request. When the thread has a sampled span, a
 *       client span starts there, {@code traceparent} is set as a request property (the last moment
 *       the JDK allows it) and the span is kept on the connection in an object field (the JDK class
 *       usually loads before the agent: then the field falls back to the bridge's weak map). If
 *       {@code connect()} or {@code getOutputStream()} fails, the request ends there.</li>
 *   <li>{@link ResponseAdvice} on the private {@code getInputStream0()}, where the JDK sends the
 *       request (following redirects and authentication) and reads the response status. Only the
 *       call that actually performs the exchange ends the request; the nested calls the JDK makes
 *       itself ({@code getResponseCode()} calls {@code getInputStream()}, which
 *       {@code getInputStream0()} also does while it runs) find the stream or the remembered
 *       exception already in place and are ignored. Metrics are recorded there, once.</li>
 * </ul>
 * Verified with {@code javap -c -p} on JDK 17 and Temurin 25 (see README.md).
 */
public final class HttpUrlConnectionPlugin implements ArgusPlugin {

    static final String CONNECTION = "sun.net.www.protocol.http.HttpURLConnection";
    /** The client span of a traced connection, from the request's start until its response. */
    static final String SPAN_FIELD = "http-url-connection.span";
    private static final String ADVICE = "io.argus.plugin.urlconnection.";

    @Override
    public String name() {
        return "http-url-connection";
    }

    @Override
    public void instrument(Probes probes) {
        probes.field(CONNECTION, SPAN_FIELD);
        probes.type(CONNECTION)
                .advise(takesArguments(0).and(
                                named("connect").and(isPublic())
                                        .or(named("plainConnect"))
                                        .or(named("getOutputStream").and(isPublic()))
                                        .or(named("getInputStream").and(isPublic()))),
                        ADVICE + "RequestStartAdvice")
                .advise(named("getInputStream0").and(takesArguments(0)), ADVICE + "ResponseAdvice");
    }
}
