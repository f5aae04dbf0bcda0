package io.argus.plugin.apachehttpclient;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.plugin.apachehttpclient.app.Hc5AsyncApp;
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
 * The HttpClient 5 async client ({@code CloseableHttpAsyncClient}) against real releases: the oldest
 * and newest tested 5.x on JDK 17, the newest also on Temurin 25 when it is installed, and the newest
 * with the plugin switched off. The application ({@link Hc5AsyncApp}) calls a real downstream server in
 * its own JVM, which prints the trace headers it receives; the agent reports to a real collector here.
 * The plugin's helper classes are defined in the application's class loader by the engine, so these
 * runs also test that on both JDKs.
 */
class ApacheHttpAsyncClientIT extends AbstractClientPluginIT {

    /** Calls made under a span: one CLIENT span each (the chained call makes two). */
    private static final List<String> TRACED = List.of("async-traced", "async-user-header", "async-reuse",
            "async-producer", "async-redirect", "async-fail", "async-minimal", "async-chain", "async-cancel",
            "async-refused-traced", "async-tracestate");
    private static final int CLIENT_SPANS = TRACED.size() + 1;
    /**
     * 200s: traced, user-header, reuse x2, producer, redirect, minimal, chain and its inner call,
     * nocallback, tracestate, and the plain calls.
     */
    private static final int OK_CALLS = 11 + Hc5AsyncApp.PLAIN_CALLS;

    record Variant(String name, String libs, String javaHome) {
        @Override
        public String toString() {
            return name;
        }
    }

    static List<Variant> variants() {
        List<Variant> variants = new ArrayList<>();
        variants.add(variant(System.getProperty("argus.test.hc5.oldest"), JDK));
        variants.add(variant(System.getProperty("argus.test.hc5.newest"), JDK));
        for (String home : AgentApp.javaHomes()) {
            if (!home.equals(JDK)) {
                variants.add(variant(System.getProperty("argus.test.hc5.newest"), home));
            }
        }
        return variants;
    }

    static List<Variant> newest() {
        return List.of(variant(System.getProperty("argus.test.hc5.newest"), JDK));
    }

    private static Variant variant(String libs, String javaHome) {
        return new Variant(libs + "-async-" + jdkLabel(javaHome), libs, javaHome);
    }

    @BeforeAll
    static void startApplications() {
        variants().forEach(ApacheHttpAsyncClientIT::launchEnabled);
        newest().forEach(ApacheHttpAsyncClientIT::launchDisabled);
    }

    private static ClientAppRun launchEnabled(Variant v) {
        return launch("ahc-" + v.name(), Hc5AsyncApp.class.getName(), v.javaHome(), libraryClasspath(v.libs()), Map.of());
    }

    private static ClientAppRun launchDisabled(Variant v) {
        return launch("ahc-off-" + v.name(), Hc5AsyncApp.class.getName(), v.javaHome(), libraryClasspath(v.libs()),
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
        for (String tag : List.of("async-traced", "async-producer", "async-minimal", "async-user-header", "async-reuse",
                "async-tracestate")) {
            assertTracedGet(run, tag);
        }
        assertThat(run.first("RECEIVED", "async-tracestate").get("tracestate")).isEqualTo("vendor=argus");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void theContextIsTheCallersInItsCallbackAndUnchangedOnTheCallingThread(Variant v) {
        ClientAppRun run = enabled(v);
        for (String tag : List.of("async-traced", "async-producer", "async-minimal", "async-fail", "async-refused-traced")) {
            assertThat(run.first("CALLER", tag).get("context")).as("caller of %s", tag).isEqualTo("same");
            assertThat(run.first("CALLBACK", tag).get("context")).as("callback of %s", tag).isEqualTo("same");
            assertThat(run.first("CALLBACK", tag).get("thread")).as("callback of %s", tag).isNotEqualTo("main");
        }
        assertThat(run.first("CALLBACK", "async-cancel").get("context")).isEqualTo("same");
        // untraced calls leave no context on the reactor's threads
        for (String tag : List.of("async-plain0", "async-missing", "async-refused-plain")) {
            assertThat(run.first("CALLER", tag).get("context")).as(tag).isEqualTo("none");
            assertThat(run.first("CALLBACK", tag).get("context")).as(tag).isEqualTo("none");
        }
        // a call made from a callback, on the I/O thread, is a child of the same parent
        TraceContext root = run.root("async-chain");
        JsonNode trace = awaitTrace(root, 3);
        assertThat(trace.path("spans")).hasSize(3);
        List<JsonNode> clients = spans(trace, "CLIENT");
        assertThat(clients).hasSize(2).allSatisfy(span ->
                assertThat(span.path("parentSpanId").asText()).isEqualToIgnoringCase(root.spanId()));
        assertThat(clients).extracting(span -> span.path("tags").path("http.url").asText())
                .containsExactlyInAnyOrder("http://127.0.0.1:" + run.port() + "/ok?tag=async-chain",
                        "http://127.0.0.1:" + run.port() + "/ok?tag=async-chain-inner");
        assertThat(run.first("CALLBACK", "async-chain-inner").get("context")).isEqualTo("same");
        for (JsonNode span : clients) {
            String tag = span.path("tags").path("http.url").asText().replaceAll(".*tag=", "");
            assertReceivedFrom(run.first("RECEIVED", tag), root, span);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void theRequestObjectIsLeftAsTheApplicationMadeIt(Variant v) {
        ClientAppRun run = enabled(v);
        assertThat(ClientAppRun.value(run.first("AFTERCALL", "async-traced"), "traceparent")).isNull();
        assertThat(ClientAppRun.value(run.first("AFTERCALL", "async-traced"), "tracestate")).isNull();
        // the application's own trace headers: replaced on the wire, untouched on its object
        Map<String, String> received = run.first("RECEIVED", "async-user-header");
        assertThat(TraceContext.parse(received.get("traceparent")).traceId()).isEqualTo(run.root("async-user-header").traceId());
        assertThat(ClientAppRun.value(received, "tracestate")).as("the replaced context's tracestate").isNull();
        Map<String, String> after = run.first("AFTERCALL", "async-user-header");
        assertThat(after.get("traceparent")).isEqualTo("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
        assertThat(after.get("tracestate")).isEqualTo("user=1");
        // the same request object executed again without a span carries no stale context
        List<Map<String, String>> reuse = run.all("RECEIVED", "async-reuse");
        assertThat(reuse).hasSize(2);
        assertThat(ClientAppRun.value(reuse.get(0), "traceparent")).isNotNull();
        assertThat(ClientAppRun.value(reuse.get(1), "traceparent")).isNull();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void redirectsErrorsAndCancellationsEndTheSpanRight(Variant v) {
        ClientAppRun run = enabled(v);
        JsonNode redirect = clientSpan(run, "async-redirect");
        assertThat(redirect.path("tags").path("http.url").asText())
                .isEqualTo("http://127.0.0.1:" + run.port() + "/redirect?tag=async-redirect");
        assertThat(redirect.path("tags").path("http.status_code").asText()).isEqualTo("200");
        List<Map<String, String>> hops = run.all("RECEIVED", "async-redirect");
        assertThat(hops).extracting(h -> h.get("path")).containsExactly("/redirect", "/ok");
        for (Map<String, String> hop : hops) {
            assertReceivedFrom(hop, run.root("async-redirect"), redirect);
        }

        JsonNode fail = clientSpan(run, "async-fail");
        assertThat(fail.path("status").asText()).isEqualTo("ERROR");
        assertThat(fail.path("tags").path("http.status_code").asText()).isEqualTo("500");
        assertThat(run.first("STATUS", "async-fail").get("code")).isEqualTo("500");

        JsonNode cancelled = clientSpan(run, "async-cancel");
        assertThat(cancelled.path("status").asText()).isEqualTo("ERROR");
        assertThat(cancelled.path("tags").path("error").asText()).contains("CancellationException");
        assertThat(run.first("CALLBACK", "async-cancel").get("outcome")).isEqualTo("cancelled");
        assertThat(run.first("FUTURE", "async-cancel").get("cancelled")).isEqualTo("true");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void refusedConnectionIsAnErrorSpanAndTheApplicationStillGetsItsCallbackAndException(Variant v) {
        ClientAppRun run = enabled(v);
        JsonNode clientSpan = clientSpan(run, "async-refused-traced");
        assertThat(clientSpan.path("status").asText()).isEqualTo("ERROR");
        assertThat(clientSpan.path("tags").path("error").asText()).contains("ConnectException");
        assertThat(clientSpan.path("tags").path("http.url").asText())
                .isEqualTo("http://127.0.0.1:" + run.closedPort() + "/refused?tag=async-refused-traced");
        assertThat(run.has("RECEIVED", "async-refused-traced")).isFalse();
        for (String tag : List.of("async-refused-traced", "async-refused-plain")) {
            assertThat(run.first("CALLBACK", tag).get("outcome")).as(tag).isEqualTo("failed");
            assertThat(run.first("FUTURE", tag).get("class")).as(tag).isEqualTo(run.first("ERROR", tag).get("class"));
        }
        Map<String, String> traced = run.first("ERROR", "async-refused-traced");
        Map<String, String> plain = run.first("ERROR", "async-refused-plain");
        assertThat(traced.get("class")).contains("ConnectException").isEqualTo(plain.get("class"));
        assertThat(errorMessage(run, "async-refused-traced")).isEqualTo(errorMessage(run, "async-refused-plain"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("newest")
    void theExceptionIsTheSameAsWithoutThePlugin(Variant v) {
        ClientAppRun run = enabled(v);
        ClientAppRun baseline = disabled(v);
        for (String tag : List.of("async-refused-traced", "async-refused-plain")) {
            assertThat(run.first("ERROR", tag).get("class")).isEqualTo(baseline.first("ERROR", tag).get("class"));
            assertThat(errorMessage(run, tag)).isEqualTo(errorMessage(baseline, tag));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void everyRequestIsCountedExactlyOnce(Variant v) {
        ClientAppRun run = enabled(v);
        // without a response: refused (traced and plain) and cancelled
        assertCallsCounted(run, OK_CALLS, 3);
        assertThat(agentGauge(run.service, "agent.advice.errors")).isZero();
        assertThat(agentGauge(run.service, "agent.classes.transformed")).isGreaterThanOrEqualTo(2);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void callsWithoutACurrentSpanAreCountedButNeitherTracedNorGivenHeaders(Variant v) {
        ClientAppRun run = enabled(v);
        for (int i = 0; i < Hc5AsyncApp.PLAIN_CALLS; i++) {
            Map<String, String> received = run.first("RECEIVED", "async-plain" + i);
            assertThat(ClientAppRun.value(received, "traceparent")).as("async-plain%d", i).isNull();
            assertThat(ClientAppRun.value(received, "tracestate")).isNull();
            assertThat(run.first("STATUS", "async-plain" + i).get("code")).isEqualTo("200");
        }
        assertThat(ClientAppRun.value(run.first("RECEIVED", "async-missing"), "traceparent")).isNull();
        assertThat(run.first("STATUS", "async-nocallback").get("code")).isEqualTo("200");
        assertThat(ClientAppRun.value(run.first("RECEIVED", "async-nocallback"), "traceparent")).isNull();
        awaitAllMetricsStored(run);
        List<String> urls = clientUrls(run);
        assertThat(urls).hasSize(CLIENT_SPANS);
        assertThat(urls).noneMatch(url -> url.contains("tag=async-plain") || url.contains("refused-plain")
                || url.contains("tag=async-missing") || url.contains("tag=async-nocallback"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("newest")
    void disabledPluginRecordsAndInstrumentsNothingAndCallsStillWork(Variant v) {
        ClientAppRun run = disabled(v);
        for (String tag : List.of("async-traced", "async-plain0", "async-producer", "async-redirect", "async-minimal",
                "async-chain", "async-nocallback", "async-tracestate")) {
            assertThat(run.first("STATUS", tag).get("code")).as(tag).isEqualTo("200");
        }
        assertThat(run.first("STATUS", "async-fail").get("code")).isEqualTo("500");
        assertThat(run.first("CALLBACK", "async-refused-plain").get("outcome")).isEqualTo("failed");
        assertThat(run.first("CALLBACK", "async-cancel").get("outcome")).isEqualTo("cancelled");
        assertThat(ClientAppRun.value(run.first("RECEIVED", "async-traced"), "traceparent")).isNull();
        assertThat(run.first("RECEIVED", "async-user-header").get("traceparent"))
                .as("the application's own header goes out unchanged")
                .isEqualTo("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
        assertNoClientRecorded(run, "async-traced");
        assertThat(agentGauge(run.service, "agent.classes.transformed")).isZero();
    }
}
