package io.argus.plugin.okhttp;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.plugin.okhttp.app.OkHttpApp;
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
 * The plugin against real OkHttp releases (the oldest supported 3.12.0, the newest 3.x, 4.x and 5.x),
 * each from its own folder of jars, in an application JVM with the real agent, a real downstream
 * server inside it and a real collector in this JVM. Every version runs on JDK 17; the oldest and the
 * newest also run on Temurin 25 when it is installed. Each run is started once and shared by the
 * tests that read it; every assertion reads the collector's API or what the application printed.
 */
class OkHttpIT extends AbstractClientPluginIT {

    /** 200s: traced, async-traced, async-throws, user-header, redirect, tracestate, the plain and the plain async calls. */
    private static final int OK_CALLS = 6 + OkHttpApp.PLAIN_CALLS + OkHttpApp.ASYNC_CALLS;
    private static final List<String> TRACED = List.of("traced", "async-traced", "async-throws", "user-header",
            "redirect", "fail", "refused-traced", "refused-async", "tracestate");

    /** One OkHttp version on one JDK. */
    record Variant(String version, String javaHome) {
        String name() {
            return version + "-" + jdkLabel(javaHome);
        }

        @Override
        public String toString() {
            return name();
        }
    }

    static List<Variant> variants() {
        List<Variant> variants = new ArrayList<>();
        for (String version : System.getProperty("argus.test.okhttp.versions").split(",")) {
            variants.add(new Variant(version, JDK));
        }
        for (String home : AgentApp.javaHomes()) {
            if (!home.equals(JDK)) {
                variants.add(new Variant(System.getProperty("argus.test.okhttp.oldest"), home));
                variants.add(new Variant(System.getProperty("argus.test.okhttp.newest"), home));
            }
        }
        return variants;
    }

    static List<Variant> newest() {
        return List.of(new Variant(System.getProperty("argus.test.okhttp.newest"), JDK));
    }

    @BeforeAll
    static void startApplications() {
        // all application JVMs start at once; each test waits only for the run it reads
        variants().forEach(OkHttpIT::launchEnabled);
        newest().forEach(OkHttpIT::launchDisabled);
    }

    private static ClientAppRun launchEnabled(Variant v) {
        return launch("okhttp-" + v.name(), OkHttpApp.class.getName(), v.javaHome(), libraryClasspath("okhttp-" + v.version()),
                Map.of());
    }

    private static ClientAppRun launchDisabled(Variant v) {
        return launch("okhttp-off-" + v.name(), OkHttpApp.class.getName(), v.javaHome(),
                libraryClasspath("okhttp-" + v.version()), Map.of("argus.plugin.okhttp.enabled", "false"));
    }

    private static ClientAppRun enabled(Variant v) {
        return launchEnabled(v).done();
    }

    private static ClientAppRun disabled(Variant v) {
        return launchDisabled(v).done();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void executeAndEnqueueAreClientSpansUnderTheCurrentSpanAndTheirTraceparentReachesTheServer(Variant v) {
        ClientAppRun run = enabled(v);
        for (String tag : List.of("traced", "async-traced")) {
            assertTracedGet(run, tag);
        }
        // the callback ran on a dispatcher thread, in the caller's context
        Map<String, String> callback = run.first("CALLBACK", "async-traced");
        assertThat(callback.get("thread")).startsWith("OkHttp");
        assertThat(TraceContext.parse(callback.get("context"))).isEqualTo(run.root("async-traced"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void aTracedCallbacksOwnExceptionReachesOkHttpUnchanged(Variant v) {
        ClientAppRun run = enabled(v);
        JsonNode clientSpan = clientSpan(run, "async-throws");
        assertThat(clientSpan.path("status").asText()).isNotEqualTo("ERROR");
        assertThat(TraceContext.parse(run.first("CALLBACK", "async-throws").get("context")))
                .isEqualTo(run.root("async-throws"));
        Map<String, String> uncaught = run.first("UNCAUGHT", "async-throws");
        assertThat(uncaught.get("class")).isEqualTo("java.lang.IllegalStateException");
        assertThat(uncaught.get("message")).isEqualTo("thrown_by_the_callback");
        assertThat(uncaught.get("same")).as("the very exception the callback threw").isEqualTo("true");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("newest")
    void aThrowingCallbackEndsAsWithoutThePlugin(Variant v) {
        Map<String, String> on = enabled(v).first("UNCAUGHT", "async-throws");
        Map<String, String> off = disabled(v).first("UNCAUGHT", "async-throws");
        assertThat(on).isEqualTo(off);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void applicationTraceHeadersAreReplacedOnTheWireOnly(Variant v) {
        ClientAppRun run = enabled(v);
        JsonNode clientSpan = clientSpan(run, "user-header");
        Map<String, String> received = run.first("RECEIVED", "user-header");
        assertReceivedFrom(received, run.root("user-header"), clientSpan);
        assertThat(ClientAppRun.value(received, "tracestate")).as("the replaced context's tracestate").isNull();
        // the application's Request object is immutable and stays as it was built
        Map<String, String> after = run.first("AFTERCALL", "user-header");
        assertThat(after.get("traceparent")).isEqualTo("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
        assertThat(after.get("tracestate")).isEqualTo("user=1");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void aRedirectIsOneCallAndA5xxIsAnError(Variant v) {
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
        JsonNode fail = clientSpan(run, "fail");
        assertThat(fail.path("status").asText()).isEqualTo("ERROR");
        assertThat(fail.path("tags").path("http.status_code").asText()).isEqualTo("500");
        assertThat(run.first("STATUS", "fail").get("code")).isEqualTo("500");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void refusedConnectionsAreErrorSpansAndTheCallerGetsTheLibrarysOwnException(Variant v) {
        ClientAppRun run = enabled(v);
        for (String tag : List.of("refused-traced", "refused-async")) {
            JsonNode clientSpan = clientSpan(run, tag);
            assertThat(clientSpan.path("status").asText()).isEqualTo("ERROR");
            assertThat(clientSpan.path("tags").path("error").asText()).contains("ConnectException");
            assertThat(clientSpan.path("tags").path("http.url").asText())
                    .isEqualTo("http://127.0.0.1:" + run.closedPort() + "/refused?tag=" + tag);
            assertThat(run.has("RECEIVED", tag)).isFalse();
            // traced or not, synchronous or not, the application sees the same exception
            assertThat(run.first("ERROR", tag).get("class")).isEqualTo("java.net.ConnectException");
            assertThat(errorMessage(run, tag)).isEqualTo(errorMessage(run, "refused-plain"));
        }
        assertThat(TraceContext.parse(run.first("CALLBACK", "refused-async").get("context"))).isEqualTo(run.root("refused-async"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("newest")
    void theExceptionIsTheSameAsWithoutThePlugin(Variant v) {
        ClientAppRun run = enabled(v);
        ClientAppRun baseline = disabled(v);
        for (String tag : List.of("refused-traced", "refused-async", "refused-plain")) {
            assertThat(run.first("ERROR", tag).get("class")).isEqualTo(baseline.first("ERROR", tag).get("class"));
            assertThat(errorMessage(run, tag)).isEqualTo(errorMessage(baseline, tag));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void everyCallIsCountedExactlyOnce(Variant v) {
        ClientAppRun run = enabled(v);
        assertCallsCounted(run, OK_CALLS, 3);
        assertThat(agentGauge(run.service, "agent.advice.errors")).isZero();
        assertThat(agentGauge(run.service, "agent.classes.transformed")).isGreaterThanOrEqualTo(2);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void callsWithoutACurrentSpanAreCountedButNeitherTracedNorGivenHeaders(Variant v) {
        ClientAppRun run = enabled(v);
        for (int i = 0; i < OkHttpApp.PLAIN_CALLS; i++) {
            Map<String, String> received = run.first("RECEIVED", "plain" + i);
            assertThat(ClientAppRun.value(received, "traceparent")).as("plain%d", i).isNull();
            assertThat(run.first("STATUS", "plain" + i).get("code")).isEqualTo("200");
        }
        // asynchronous calls after the traced ones, on the same dispatcher threads: no context carried over
        for (int i = 0; i < OkHttpApp.ASYNC_CALLS; i++) {
            assertThat(ClientAppRun.value(run.first("RECEIVED", "async" + i), "traceparent")).as("async%d", i).isNull();
            assertThat(ClientAppRun.value(run.first("CALLBACK", "async" + i), "context")).as("async%d", i).isNull();
            assertThat(run.first("STATUS", "async" + i).get("code")).isEqualTo("200");
        }
        assertThat(ClientAppRun.value(run.first("RECEIVED", "missing"), "traceparent")).isNull();
        awaitAllMetricsStored(run);
        List<String> urls = clientUrls(run);
        assertThat(urls).hasSize(TRACED.size());
        assertThat(urls).noneMatch(url -> url.contains("tag=plain") || url.matches(".*tag=async\\d.*")
                || url.contains("refused-plain") || url.contains("tag=missing"));
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
        for (String tag : List.of("traced", "async-traced", "plain0", "async0", "redirect", "tracestate")) {
            assertThat(run.first("STATUS", tag).get("code")).as(tag).isEqualTo("200");
        }
        assertThat(run.first("STATUS", "fail").get("code")).isEqualTo("500");
        assertThat(ClientAppRun.value(run.first("RECEIVED", "traced"), "traceparent")).isNull();
        assertThat(ClientAppRun.value(run.first("RECEIVED", "async-traced"), "traceparent")).isNull();
        assertThat(ClientAppRun.value(run.first("CALLBACK", "async-traced"), "context")).isNull();
        assertNoClientRecorded(run, "traced");
        assertThat(agentGauge(run.service, "agent.classes.transformed")).isZero();
    }
}
