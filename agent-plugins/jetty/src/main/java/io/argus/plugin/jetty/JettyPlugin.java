package io.argus.plugin.jetty;

import io.argus.core.plugin.ArgusPlugin;
import io.argus.core.plugin.Probes;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.matcher.ElementMatcher;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * Server spans and HTTP server metrics for Jetty 9.4 and Jetty 12 (12.0.x, 12.1.x).
 *
 * <p>Every probe matches one class by its exact name. Each Jetty generation has one probe where a
 * request starts being handled (it reads the inbound trace headers and starts the span on the
 * handling thread) and one where the response is complete (it records the final status):
 * <ul>
 *   <li>Jetty 9.4: {@code Server.handle(HttpChannel)}, once per request (async re-dispatches go to
 *       {@code handleAsync}); a request that did not start async is finished when it returns.
 *       Async requests are finished in {@code HttpChannel.onCompleted()}.</li>
 *   <li>Jetty 12: {@code Server.handle(Request, Response, Callback)} starts, and the channel's
 *       {@code completeStream(HttpStream, Throwable)}, the method that also writes the request log,
 *       finishes every request, whichever thread completes the callback. It lives in
 *       {@code HttpChannelState} in recent 12.0.x and 12.1.x, and in its inner
 *       {@code HandlerInvoker} in early 12.0.x.</li>
 * </ul>
 */
public final class JettyPlugin implements ArgusPlugin {

    static final String SERVER = "org.eclipse.jetty.server.Server";
    static final String HTTP_CHANNEL_9 = "org.eclipse.jetty.server.HttpChannel";
    static final String CHANNEL_STATE_12 = "org.eclipse.jetty.server.internal.HttpChannelState";
    static final String HANDLER_INVOKER_12 = CHANNEL_STATE_12 + "$HandlerInvoker";
    static final String REQUEST_9 = "org.eclipse.jetty.server.Request";
    static final String CHANNEL_REQUEST_12 = CHANNEL_STATE_12 + "$ChannelRequest";

    private static final String ADVICE = "io.argus.plugin.jetty.";
    private static final String FIELDS = ADVICE + "JettyFields";
    private static final String HEADERS_9 = ADVICE + "v9.RequestHeaders";
    private static final String HEADERS_12 = ADVICE + "v12.RequestHeaders";
    private static final String COMPLETION_12 = ADVICE + "v12.RequestCompletion";

    @Override
    public String name() {
        return "jetty";
    }

    @Override
    public void instrument(Probes probes) {
        probes.field(REQUEST_9, JettyFields.SPAN).longField(REQUEST_9, JettyFields.START)
                .field(CHANNEL_REQUEST_12, JettyFields.SPAN).field(CHANNEL_REQUEST_12, JettyFields.ERROR);

        probes.type(SERVER)
                .helpers(FIELDS, HEADERS_9, HEADERS_12)
                // Jetty 9.4: handle(HttpChannel)
                .advise(named("handle").and(takesArguments(1)).and(takesArgument(0, named(HTTP_CHANNEL_9))),
                        ADVICE + "v9.ServerHandleAdvice")
                // Jetty 12: handle(Request, Response, Callback)
                .advise(named("handle").and(takesArguments(3))
                                .and(takesArgument(0, named("org.eclipse.jetty.server.Request")))
                                .and(takesArgument(1, named("org.eclipse.jetty.server.Response")))
                                .and(takesArgument(2, named("org.eclipse.jetty.util.Callback"))),
                        ADVICE + "v12.ServerHandleAdvice");

        // Jetty 9.4: the response of an async request is complete
        probes.type(HTTP_CHANNEL_9).helpers(FIELDS)
                .advise(named("onCompleted").and(takesArguments(0)), ADVICE + "v9.ChannelCompletedAdvice");

        // Jetty 12: every request's response is complete
        probes.type(CHANNEL_STATE_12).helpers(FIELDS, COMPLETION_12)
                .advise(completeStream(), ADVICE + "v12.CompleteStreamAdvice");
        probes.type(HANDLER_INVOKER_12).helpers(FIELDS, COMPLETION_12)
                .advise(completeStream(), ADVICE + "v12.InvokerCompleteStreamAdvice");
    }

    private static ElementMatcher.Junction<MethodDescription> completeStream() {
        return named("completeStream").and(takesArguments(2))
                .and(takesArgument(0, named("org.eclipse.jetty.server.HttpStream")))
                .and(takesArgument(1, named("java.lang.Throwable")));
    }
}
