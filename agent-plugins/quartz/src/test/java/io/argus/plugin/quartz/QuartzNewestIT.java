package io.argus.plugin.quartz;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.plugin.quartz.app.QuartzApp;
import io.argus.testing.AbstractCollectorIT;
import io.argus.testing.AgentApp;
import io.argus.testing.CollectorClient;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The plugin with the newest Quartz (from target/libs/) and the jdbc, http-url-connection and
 * jdk-http-server plugins: each run of the stock job is one trace (the job's root span, the HTTP client
 * span, the called service's server span under it, the JDBC span); each run of the broken job is an
 * ERROR root; the job metrics count both.
 */
class QuartzNewestIT extends AbstractCollectorIT {

    String version() {
        return System.getProperty("argus.test.quartz.newest");
    }

    /** This module's test class path, with the Quartz of {@link #version()}. */
    String classpath() {
        String version = version();
        if (version.equals(System.getProperty("argus.test.quartz.oldest"))) {
            return AgentApp.applicationClasspath();
        }
        return AgentApp.applicationClasspath(List.of(Paths.get(System.getProperty("argus.test.libs"), "quartz-" + version,
                "quartz-" + version + ".jar").toString()), File.separator + "quartz-", null);
    }

    AgentApp run(String javaHome, String service) {
        return AgentApp.builder(QuartzApp.class.getName()).javaHome(javaHome).service(service)
                .collector(collector.ingestPort()).samplingRate(100).classpath(classpath()).withTestingApp()
                .logToTestLogs(service).startAndAwaitDone(Duration.ofSeconds(60));
    }

    static List<JsonNode> jobTraces(String service, String spanName, int atLeast) {
        return CollectorClient.await(atLeast + " traces of " + spanName, WAIT, () -> {
            List<JsonNode> out = new ArrayList<>();
            for (JsonNode t : api.get("/api/traces?service=" + service + "&limit=100")) {
                if (spanName.equals(t.path("rootName").asText())) {
                    out.add(t);
                }
            }
            return out;
        }, t -> t.size() >= atLeast);
    }

    static List<JsonNode> jobRows(String service) {
        List<JsonNode> rows = new ArrayList<>();
        api.get("/api/metrics/http?service=" + service + "&kind=job").forEach(rows::add);
        return rows;
    }

    static JsonNode jobRow(String service, String job) {
        return jobRows(service).stream().filter(r -> job.equals(r.path("target").asText())).findFirst().orElse(null);
    }

    void verify(AgentApp app, String service) {
        // each run of the stock job: one trace of its own, with the HTTP call (and the service's span) and the query
        List<JsonNode> stock = jobTraces(service, "Quartz reports.stock", 5);
        for (JsonNode summary : stock) {
            JsonNode trace = awaitTrace(summary.path("traceId").asText(), 4);
            List<JsonNode> spans = list(trace.path("spans"));
            assertThat(spans).as("spans of one run: %s", trace).hasSize(4);
            JsonNode root = spans.stream().filter(AbstractCollectorIT::isRoot).findFirst().orElseThrow();
            assertThat(root.path("name").asText()).isEqualTo("Quartz reports.stock");
            assertThat(root.path("kind").asText()).isEqualTo("INTERNAL");
            assertThat(root.path("status").asText()).isEqualTo("OK");
            JsonNode client = spans.stream().filter(s -> "CLIENT".equals(s.path("kind").asText())
                    && s.path("tags").has("http.method")).findFirst().orElseThrow();
            JsonNode db = spans.stream().filter(s -> s.path("tags").has("db.system")).findFirst().orElseThrow();
            JsonNode server = spans.stream().filter(s -> "SERVER".equals(s.path("kind").asText())).findFirst().orElseThrow();
            assertThat(client.path("parentSpanId").asText()).isEqualTo(root.path("spanId").asText());
            assertThat(db.path("parentSpanId").asText()).isEqualTo(root.path("spanId").asText());
            assertThat(db.path("tags").path("db.statement").asText()).isEqualTo("SELECT qty FROM items WHERE id = ?");
            assertThat(server.path("parentSpanId").asText()).isEqualTo(client.path("spanId").asText());
            assertThat(server.path("name").asText()).isEqualTo("GET /stock");
        }
        // the broken job: ERROR roots with the job's own exception, alone in their traces
        for (JsonNode summary : jobTraces(service, "Quartz reports.broken", 5)) {
            JsonNode trace = awaitTrace(summary.path("traceId").asText(), 1);
            assertThat(trace.path("spans")).hasSize(1);
            JsonNode root = trace.path("spans").get(0);
            assertThat(root.path("status").asText()).isEqualTo("ERROR");
            assertThat(root.path("tags").path("error").asText()).isEqualTo("java.lang.IllegalStateException");
        }
        // inside every run its own span is current (at 100%); that no run joins another's trace is the
        // span counts above: a context left on a worker thread would put a run's spans in an older trace
        assertThat(app.lines().stream().filter(l -> l.startsWith("RUN ")))
                .hasSizeGreaterThanOrEqualTo(12).allSatisfy(l -> assertThat(l).endsWith("context=true"));
        // job metrics: every run, each failed one an error
        JsonNode stockRow = CollectorClient.await("job metrics of reports.stock", WAIT, () -> jobRow(service, "reports.stock"),
                r -> r.path("count").asLong() >= 6);
        assertThat(stockRow.path("method").asText()).isEqualTo("quartz");
        assertThat(stockRow.path("kind").asText()).isEqualTo("job");
        assertThat(stockRow.path("errors").asLong()).isZero();
        JsonNode brokenRow = CollectorClient.await("job metrics of reports.broken", WAIT,
                () -> jobRow(service, "reports.broken"), r -> r.path("count").asLong() >= 6);
        assertThat(brokenRow.path("errors").asLong()).isEqualTo(brokenRow.path("count").asLong());
        assertThat(agentGauge(service, "agent.advice.errors")).isZero();
    }

    @Test
    void eachRunIsOneTraceWithJobMetrics() {
        String service = "quartz-" + version().replace('.', '-');
        try (AgentApp app = run(JDK, service)) {
            verify(app, service);
        }
    }

    @Test
    void onTheNewestJdk() {
        String jdk = AgentApp.newestJavaHome();
        String service = "quartz-" + version().replace('.', '-') + "-" + jdkLabel(jdk);
        try (AgentApp app = run(jdk, service)) {
            verify(app, service);
        }
    }
}
