package io.argus.plugin.apachehttpclient;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.plugin.apachehttpclient.app.Hc4App;
import io.argus.plugin.apachehttpclient.app.Hc5App;
import io.argus.testing.AbstractClientPluginIT;
import io.argus.testing.AgentApp;
import io.argus.testing.ClientAppRun;
import io.argus.testing.TraceContext;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The plugin against real Apache HttpClient releases: the oldest and newest tested 4.x and 5.x, each
 * from its own folder of jars, in an application JVM with the real agent, a real downstream server
 * inside it and a real collector in this JVM. Every version runs on JDK 17; the newest 4.x and 5.x
 * also run on Temurin 25 when it is installed. Each run is started once and shared by the tests
 * that read it; every assertion reads the collector's API or what the application printed.
 */
class ApacheHttpClientIT extends AbstractClientPluginIT {

    /** One library version on one JDK. */
    record Variant(String name, String mainClass, String libs, String javaHome, int okCalls, List<String> tracedTags) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static final List<String> TRACED_V5 = List.of("traced", "user-header", "reuse", "handler", "host-target",
            "redirect", "fail", "minimal", "refused-traced", "tracestate");
    private static final List<String> TRACED_V4;

    static {
        List<String> v4 = new ArrayList<>(TRACED_V5);
        v4.add("legacy");
        TRACED_V4 = List.copyOf(v4);
    }

    /** 200s: traced, user-header, reuse x2, handler, host-target, redirect, minimal, tracestate, the plain calls (+ legacy on 4.x). */
    private static final int OK_V5 = 9 + Hc5App.PLAIN_CALLS;
    private static final int OK_V4 = 10 + Hc4App.PLAIN_CALLS;

    static List<Variant> variants() {
        List<Variant> variants = new ArrayList<>();
        variants.add(v4(System.getProperty("argus.test.hc4.oldest"), JDK));
        variants.add(v4(System.getProperty("argus.test.hc4.newest"), JDK));
        variants.add(v5(System.getProperty("argus.test.hc5.oldest"), JDK));
        variants.add(v5(System.getProperty("argus.test.hc5.newest"), JDK));
        for (String home : AgentApp.javaHomes()) {
            if (!home.equals(JDK)) {
                variants.add(v4(System.getProperty("argus.test.hc4.newest"), home));
                variants.add(v5(System.getProperty("argus.test.hc5.newest"), home));
            }
        }
        return variants;
    }

    static List<Variant> newest() {
        return List.of(v4(System.getProperty("argus.test.hc4.newest"), JDK), v5(System.getProperty("argus.test.hc5.newest"), JDK));
    }

    private static Variant v4(String libs, String javaHome) {
        return new Variant(libs + "-" + jdkLabel(javaHome), Hc4App.class.getName(), libs, javaHome, OK_V4, TRACED_V4);
    }

    private static Variant v5(String libs, String javaHome) {
        return new Variant(libs + "-" + jdkLabel(javaHome), Hc5App.class.getName(), libs, javaHome, OK_V5, TRACED_V5);
    }

    @BeforeAll
    static void startApplications() {
        // all application JVMs start at once; each test waits only for the run it reads
        variants().forEach(ApacheHttpClientIT::launchEnabled);
        newest().forEach(ApacheHttpClientIT::launchDisabled);
    }

    private static ClientAppRun launchEnabled(Variant v) {
        return launch("ahc-" + v.name(), v.mainClass(), v.javaHome(), libraryClasspath(v.libs()), Map.of());
    }

    private static ClientAppRun launchDisabled(Variant v) {
        return launch("ahc-off-" + v.name(), v.mainClass(), v.javaHome(), libraryClasspath(v.libs()),
                Map.of("argus.plugin.apache-httpclient.enabled", "false"));
    }

    private static ClientAppRun enabled(Variant v) {
        return launchEnabled(v).done();
    }

    private static ClientAppRun disabled(Variant v) {
        return launchDisabled(v).done();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void tracedCallIsAClientSpanUnderTheCurrentSpanAndItsTraceparentReachesTheServer(Variant v) {
        ClientAppRun run = enabled(v);
        for (String tag : List.of("traced", "handler", "minimal", "user-header", "reuse")) {
            assertTracedGet(run, tag);
        }
        if (v.mainClass().equals(Hc4App.class.getName())) {
            // DefaultHttpClient (AbstractHttpClient)
            JsonNode legacy = clientSpan(run, "legacy");
            assertReceivedFrom(run.first("RECEIVED", "legacy"), run.root("legacy"), legacy);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void theRequestObjectIsLeftAsTheApplicationMadeIt(Variant v) {
        ClientAppRun run = enabled(v);
        // no header of ours stays on the request after the call
        assertThat(ClientAppRun.value(run.first("AFTERCALL", "traced"), "traceparent")).isNull();
        assertThat(ClientAppRun.value(run.first("AFTERCALL", "traced"), "tracestate")).isNull();
        // the application's own trace headers: replaced on the wire, put back afterwards
        Map<String, String> received = run.first("RECEIVED", "user-header");
        assertThat(TraceContext.parse(received.get("traceparent")).traceId()).isEqualTo(run.root("user-header").traceId());
        assertThat(ClientAppRun.value(received, "tracestate")).as("the replaced context's tracestate").isNull();
        Map<String, String> after = run.first("AFTERCALL", "user-header");
        assertThat(after.get("traceparent")).isEqualTo("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
        assertThat(after.get("tracestate")).isEqualTo("user=1");
        // the same request object executed again without a span carries no stale context
        List<Map<String, String>> reuse = run.all("RECEIVED", "reuse");
        assertThat(reuse).hasSize(2);
        assertThat(ClientAppRun.value(reuse.get(0), "traceparent")).isNotNull();
        assertThat(ClientAppRun.value(reuse.get(1), "traceparent")).isNull();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void redirectsAndExplicitTargetsAreOneRequest(Variant v) {
        ClientAppRun run = enabled(v);
        JsonNode redirect = clientSpan(run, "redirect");
        assertThat(redirect.path("tags").path("http.url").asText())
                .isEqualTo("http://127.0.0.1:" + run.port() + "/redirect?tag=redirect");
        assertThat(redirect.path("tags").path("http.status_code").asText()).isEqualTo("200");
        List<Map<String, String>> hops = run.all("RECEIVED", "redirect");
        assertThat(hops).extracting(h -> h.get("path")).containsExactly("/redirect", "/ok");
        for (Map<String, String> hop : hops) {
            assertReceivedFrom(hop, run.root("redirect"), redirect);
        }
        assertThat(run.first("STATUS", "redirect").get("code")).isEqualTo("200");

        JsonNode hostTarget = clientSpan(run, "host-target");
        assertThat(hostTarget.path("tags").path("http.url").asText())
                .isEqualTo("http://127.0.0.1:" + run.port() + "/ok?tag=host-target");
        assertReceivedFrom(run.first("RECEIVED", "host-target"), run.root("host-target"), hostTarget);

        JsonNode fail = clientSpan(run, "fail");
        assertThat(fail.path("status").asText()).isEqualTo("ERROR");
        assertThat(fail.path("tags").path("http.status_code").asText()).isEqualTo("500");
        assertThat(run.first("STATUS", "fail").get("code")).isEqualTo("500");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void refusedConnectionIsAnErrorSpanAndTheCallerGetsTheLibrarysOwnException(Variant v) {
        ClientAppRun run = enabled(v);
        JsonNode clientSpan = clientSpan(run, "refused-traced");
        assertThat(clientSpan.path("status").asText()).isEqualTo("ERROR");
        assertThat(clientSpan.path("tags").path("error").asText()).contains("ConnectException");
        assertThat(clientSpan.path("tags").path("http.url").asText())
                .isEqualTo("http://127.0.0.1:" + run.closedPort() + "/refused?tag=refused-traced");
        assertThat(run.has("RECEIVED", "refused-traced")).isFalse();
        // traced or not, the application sees the same exception
        Map<String, String> traced = run.first("ERROR", "refused-traced");
        Map<String, String> plain = run.first("ERROR", "refused-plain");
        assertThat(traced.get("class")).endsWith("HttpHostConnectException").isEqualTo(plain.get("class"));
        assertThat(traced.get("message")).isEqualTo(plain.get("message"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("newest")
    void theExceptionIsTheSameAsWithoutThePlugin(Variant v) {
        ClientAppRun run = enabled(v);
        ClientAppRun baseline = disabled(v);
        for (String tag : List.of("refused-traced", "refused-plain")) {
            assertThat(run.first("ERROR", tag).get("class")).isEqualTo(baseline.first("ERROR", tag).get("class"));
            assertThat(errorMessage(run, tag)).isEqualTo(errorMessage(baseline, tag));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void everyRequestIsCountedExactlyOnce(Variant v) {
        ClientAppRun run = enabled(v);
        assertCallsCounted(run, v.okCalls(), 2);
        assertThat(agentGauge(run.service, "agent.advice.errors")).isZero();
        assertThat(agentGauge(run.service, "agent.classes.transformed")).isGreaterThanOrEqualTo(1);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void callsWithoutACurrentSpanAreCountedButNeitherTracedNorGivenHeaders(Variant v) {
        ClientAppRun run = enabled(v);
        for (int i = 0; i < Hc4App.PLAIN_CALLS; i++) {
            Map<String, String> received = run.first("RECEIVED", "plain" + i);
            assertThat(ClientAppRun.value(received, "traceparent")).as("plain%d", i).isNull();
            assertThat(ClientAppRun.value(received, "tracestate")).isNull();
            assertThat(run.first("STATUS", "plain" + i).get("code")).isEqualTo("200");
        }
        assertThat(ClientAppRun.value(run.first("RECEIVED", "missing"), "traceparent")).isNull();
        awaitAllMetricsStored(run);
        // every client span of this service belongs to one of the calls made under a span
        List<String> urls = clientUrls(run);
        assertThat(urls).hasSize(v.tracedTags().size());
        assertThat(urls).noneMatch(url -> url.contains("tag=plain") || url.contains("refused-plain") || url.contains("tag=missing"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void inboundTracestateIsPassedOn(Variant v) {
        ClientAppRun run = enabled(v);
        JsonNode clientSpan = clientSpan(run, "tracestate");
        Map<String, String> received = run.first("RECEIVED", "tracestate");
        assertReceivedFrom(received, run.root("tracestate"), clientSpan);
        assertThat(received.get("tracestate")).isEqualTo("vendor=argus");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("newest")
    void disabledPluginRecordsAndInstrumentsNothingAndCallsStillWork(Variant v) {
        ClientAppRun run = disabled(v);
        for (String tag : List.of("traced", "plain0", "handler", "redirect", "minimal", "tracestate")) {
            assertThat(run.first("STATUS", tag).get("code")).as(tag).isEqualTo("200");
        }
        assertThat(run.first("STATUS", "fail").get("code")).isEqualTo("500");
        assertThat(ClientAppRun.value(run.first("RECEIVED", "traced"), "traceparent")).isNull();
        assertThat(run.first("AFTERCALL", "user-header").get("traceparent"))
                .isEqualTo("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
        assertNoClientRecorded(run, "traced");
        assertThat(agentGauge(run.service, "agent.classes.transformed")).isZero();
    }
}
