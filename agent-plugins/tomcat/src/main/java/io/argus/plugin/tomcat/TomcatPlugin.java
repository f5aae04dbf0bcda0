package io.argus.plugin.tomcat;

import io.argus.core.plugin.ArgusPlugin;
import io.argus.core.plugin.Probes;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * Server spans and HTTP server metrics for Apache Tomcat 9 (javax.servlet) and 10.1/11
 * (jakarta.servlet), embedded or standalone. Every probe matches one class by its exact name, and no
 * advice touches a servlet type, so one set of advice serves both namespaces.
 *
 * <ul>
 *   <li>{@code CoyoteAdapter.service(coyote Request, coyote Response)}: the connector hands every
 *       request (HTTP/1.1, HTTP/2, AJP) to the container here, once. Enter takes the start time; exit
 *       ends a request that did not go async (Tomcat has recycled it by then, and writes its access log
 *       at the same point).</li>
 *   <li>{@code CoyoteAdapter.postParseRequest(...)}: returns after Tomcat has parsed and mapped the
 *       request; the span starts here, where reading the request URI no longer changes how Tomcat
 *       processes it.</li>
 *   <li>{@code CoyoteAdapter.asyncDispatch(...)}: every later event of an async request runs here; the
 *       request ends when it returns with the request no longer async (again where Tomcat logs it).</li>
 *   <li>{@code StandardWrapperValve.exception(...)}: the exception a servlet or filter threw, kept for
 *       the span of a traced request.</li>
 * </ul>
 * State that must outlive one method lives in fields of the coyote request ({@link TomcatFields}), an
 * object Tomcat allocates once per processor and recycles, never in objects allocated per request.
 */
public final class TomcatPlugin implements ArgusPlugin {

    static final String ADAPTER = "org.apache.catalina.connector.CoyoteAdapter";
    static final String COYOTE_REQUEST = "org.apache.coyote.Request";
    static final String COYOTE_RESPONSE = "org.apache.coyote.Response";
    static final String REQUEST = "org.apache.catalina.connector.Request";
    static final String WRAPPER_VALVE = "org.apache.catalina.core.StandardWrapperValve";

    private static final String ADVICE = "io.argus.plugin.tomcat.";
    private static final String FIELDS = ADVICE + "TomcatFields";

    @Override
    public String name() {
        return "tomcat";
    }

    @Override
    public void instrument(Probes probes) {
        probes.field(COYOTE_REQUEST, TomcatFields.SPAN).field(COYOTE_REQUEST, TomcatFields.METHOD)
                .field(COYOTE_REQUEST, TomcatFields.PATH).field(COYOTE_REQUEST, TomcatFields.ERROR)
                .longField(COYOTE_REQUEST, TomcatFields.START);

        probes.type(ADAPTER)
                .helpers(FIELDS, ADVICE + "CoyoteRequestHeaders", ADVICE + "RequestEnd")
                .advise(named("service").and(takesArguments(2))
                                .and(takesArgument(0, named(COYOTE_REQUEST)))
                                .and(takesArgument(1, named(COYOTE_RESPONSE))),
                        ADVICE + "ServiceAdvice")
                .advise(named("postParseRequest").and(takesArguments(4))
                                .and(takesArgument(0, named(COYOTE_REQUEST)))
                                .and(takesArgument(1, named(REQUEST))),
                        ADVICE + "PostParseAdvice")
                .advise(named("asyncDispatch").and(takesArguments(3))
                                .and(takesArgument(0, named(COYOTE_REQUEST)))
                                .and(takesArgument(1, named(COYOTE_RESPONSE))),
                        ADVICE + "AsyncDispatchAdvice");
        probes.type(WRAPPER_VALVE).helpers(FIELDS)
                .advise(named("exception").and(takesArgument(0, named(REQUEST)))
                                .and(takesArgument(2, named("java.lang.Throwable"))),
                        ADVICE + "WrapperExceptionAdvice");
    }
}
