package io.argus.collector.otlp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.collector.Collector;
import io.argus.collector.CollectorConfig;
import io.argus.collector.testing.Api;
import io.argus.collector.testing.TestConfigs;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.opentelemetry.exporter.otlp.http.metrics.OtlpHttpMetricExporter;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.export.PeriodicMetricReader;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real OpenTelemetry Java SDK exports to the collector over OTLP/HTTP (protobuf); the collector's JSON API then
 * shows the trace, the service, the sender among the agents and the HTTP metrics derived from the spans.
 */
class OtlpSdkTest {
    static final AttributeKey<String> METHOD = AttributeKey.stringKey("http.request.method");
    static final AttributeKey<String> ROUTE = AttributeKey.stringKey("http.route");
    static final AttributeKey<Long> STATUS = AttributeKey.longKey("http.response.status_code");

    @TempDir
    static Path dataDir;
    static Collector collector;
    static Api api;
    static String endpoint;

    @BeforeAll
    static void start() {
        collector = Collector.start(TestConfigs.ephemeral().otlpHttpPort(CollectorConfig.ANY_FREE_PORT)
                .dataDir(dataDir).build());
        api = new Api(collector);
        endpoint = "http://127.0.0.1:" + collector.otlpHttpPort();
    }

    @AfterAll
    static void stop() {
        collector.close();
    }

    static Resource resource(String service, String instance) {
        return Resource.getDefault().merge(Resource.create(Attributes.of(
                AttributeKey.stringKey("service.name"), service,
                AttributeKey.stringKey("service.instance.id"), instance)));
    }

    @Test
    void serverSpanWithAClientChild() {
        OtlpHttpSpanExporter exporter = OtlpHttpSpanExporter.builder().setEndpoint(endpoint + "/v1/traces")
                .setTimeout(Duration.ofSeconds(10)).build();
        SdkTracerProvider provider = SdkTracerProvider.builder().setResource(resource("otel-front", "front-a"))
                .addSpanProcessor(SimpleSpanProcessor.create(exporter)).build();
        String traceId;
        try {
            Tracer tracer = provider.get("io.argus.test");
            Span server = tracer.spanBuilder("GET /orders/{id}").setSpanKind(SpanKind.SERVER)
                    .setAttribute(METHOD, "GET").setAttribute(ROUTE, "/orders/{id}")
                    .setAttribute("url.path", "/orders/7").setAttribute(STATUS, 200L).startSpan();
            traceId = server.getSpanContext().getTraceId();
            try (Scope ignored = server.makeCurrent()) {
                Span client = tracer.spanBuilder("GET").setSpanKind(SpanKind.CLIENT)
                        .setAttribute(METHOD, "GET").setAttribute("server.address", "inventory")
                        .setAttribute("server.port", 8080L).setAttribute(STATUS, 503L)
                        .setAttribute("retry", true).startSpan();
                client.setStatus(StatusCode.ERROR, "upstream unavailable");
                client.end();
            }
            server.end();
            assertThat(provider.forceFlush().join(20, TimeUnit.SECONDS).isSuccess()).isTrue();
        } finally {
            provider.shutdown().join(10, TimeUnit.SECONDS);
        }

        JsonNode traces = api.await("/api/traces?service=otel-front", j -> j.size() == 1
                && j.get(0).get("spanCount").asInt() == 2);
        assertThat(traces.get(0).get("traceId").asText()).isEqualTo(traceId);
        assertThat(traces.get(0).get("rootName").asText()).isEqualTo("GET /orders/{id}");

        JsonNode spans = api.json("/api/traces/" + traceId).get("spans");
        JsonNode server = spans.get(0);
        JsonNode client = spans.get(1);
        assertThat(server.get("kind").asText()).isEqualTo("SERVER");
        assertThat(server.get("parentSpanId").isNull()).isTrue();
        assertThat(server.get("service").asText()).isEqualTo("otel-front");
        assertThat(server.get("instance").asText()).isEqualTo("front-a");
        assertThat(server.get("status").asText()).isEqualTo("UNSET");
        assertThat(server.get("tags").get("http.route").asText()).isEqualTo("/orders/{id}");
        assertThat(server.get("tags").get("http.response.status_code").asText()).isEqualTo("200");
        assertThat(server.get("tags").get("otel.scope.name").asText()).isEqualTo("io.argus.test");
        assertThat(client.get("kind").asText()).isEqualTo("CLIENT");
        assertThat(client.get("parentSpanId").asText()).isEqualTo(server.get("spanId").asText());
        assertThat(client.get("status").asText()).isEqualTo("ERROR");
        assertThat(client.get("tags").get("retry").asText()).isEqualTo("true");
        assertThat(client.get("tags").get("otel.status_description").asText()).isEqualTo("upstream unavailable");
        assertThat(client.get("durationNanos").asLong()).isPositive();

        JsonNode services = api.json("/api/services");
        assertThat(services.findValuesAsText("service")).contains("otel-front");
        JsonNode agent = agent("otel-front");
        assertThat(agent.get("instance").asText()).isEqualTo("front-a");
        assertThat(agent.get("agentVersion").asText()).startsWith("otlp");
        assertThat(agent.get("runtimeVersion").asText()).isNotEmpty();
        assertThat(agent.get("connected").asBoolean()).isTrue();
        assertThat(agent.get("spansReceived").asLong()).isEqualTo(2);

        JsonNode serverMetrics = api.json("/api/metrics/http?service=otel-front&kind=server");
        assertThat(serverMetrics).hasSize(1);
        assertThat(serverMetrics.get(0).get("method").asText()).isEqualTo("GET");
        assertThat(serverMetrics.get(0).get("target").asText()).isEqualTo("/orders/{id}");
        assertThat(serverMetrics.get(0).get("status").asInt()).isEqualTo(200);
        assertThat(serverMetrics.get(0).get("count").asLong()).isEqualTo(1);
        assertThat(serverMetrics.get(0).get("errors").asLong()).isZero();
        assertThat(serverMetrics.get(0).get("maxMs").asDouble()).isPositive();
        JsonNode clientMetrics = api.json("/api/metrics/http?service=otel-front&kind=client");
        assertThat(clientMetrics).hasSize(1);
        assertThat(clientMetrics.get(0).get("target").asText()).isEqualTo("inventory:8080");
        assertThat(clientMetrics.get(0).get("status").asInt()).isEqualTo(503);
        assertThat(clientMetrics.get(0).get("errors").asLong()).isEqualTo(1);

        assertThat(api.metric("argus_collector_otlp_spans_accepted_total")).isGreaterThanOrEqualTo(2);
    }

    @Test
    void jvmGaugesAndServerDurationHistogram() throws Exception {
        OtlpHttpMetricExporter exporter = OtlpHttpMetricExporter.builder().setEndpoint(endpoint + "/v1/metrics")
                .setTimeout(Duration.ofSeconds(10)).build();
        SdkMeterProvider provider = SdkMeterProvider.builder().setResource(resource("otel-metrics", "m-1"))
                .registerMetricReader(PeriodicMetricReader.builder(exporter).setInterval(Duration.ofHours(1)).build())
                .build();
        try {
            Meter meter = provider.get("io.argus.test");
            AttributeKey<String> type = AttributeKey.stringKey("jvm.memory.type");
            AttributeKey<String> pool = AttributeKey.stringKey("jvm.memory.pool.name");
            meter.upDownCounterBuilder("jvm.memory.used").setUnit("By").buildWithCallback(m -> {
                m.record(1000, Attributes.of(type, "heap", pool, "eden"));
                m.record(500, Attributes.of(type, "heap", pool, "old"));
                m.record(300, Attributes.of(type, "non_heap", pool, "metaspace"));
            });
            meter.gaugeBuilder("jvm.cpu.recent_utilization").buildWithCallback(m -> m.record(0.25));
            DoubleHistogram duration = meter.histogramBuilder("http.server.request.duration").setUnit("s").build();
            Attributes get = Attributes.of(METHOD, "GET", ROUTE, "/items", STATUS, 200L);
            duration.record(0.004, get);
            duration.record(0.012, get);
            duration.record(0.3, Attributes.of(METHOD, "POST", ROUTE, "/items", STATUS, 500L));
            flush(provider);
            // a second export of the same cumulative series adds only what happened since
            duration.record(0.006, get);
            flush(provider);
        } finally {
            provider.shutdown().join(10, TimeUnit.SECONDS);
        }

        JsonNode jvm = api.await("/api/metrics/jvm?service=otel-metrics", j -> j.get("instances").size() == 1);
        JsonNode latest = jvm.get("instances").get(0).get("latest");
        assertThat(latest.get("jvm.heap.used").asDouble()).isEqualTo(1500);
        assertThat(latest.get("jvm.nonheap.used").asDouble()).isEqualTo(300);
        assertThat(latest.get("jvm.cpu.process_load").asDouble()).isEqualTo(0.25);

        JsonNode cells = api.json("/api/metrics/http?service=otel-metrics&kind=server");
        assertThat(cells).hasSize(2);
        JsonNode gets = cells.get(0);
        assertThat(gets.get("method").asText()).isEqualTo("GET");
        assertThat(gets.get("target").asText()).isEqualTo("/items");
        assertThat(gets.get("count").asLong()).isEqualTo(3);
        assertThat(gets.get("avgMs").asDouble()).isCloseTo(7.333, org.assertj.core.data.Offset.offset(0.01));
        JsonNode posts = cells.get(1);
        assertThat(posts.get("method").asText()).isEqualTo("POST");
        assertThat(posts.get("status").asInt()).isEqualTo(500);
        assertThat(posts.get("errors").asLong()).isEqualTo(1);
        assertThat(agent("otel-metrics").get("agentVersion").asText()).startsWith("otlp");
    }

    /**
     * The periodic reader refuses a flush while the previous export is still being wound up (it fails at once,
     * without exporting), so a flush right after another is tried again.
     */
    static void flush(SdkMeterProvider provider) throws InterruptedException {
        for (int i = 0; i < 100; i++) {
            if (provider.forceFlush().join(20, TimeUnit.SECONDS).isSuccess()) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the metric export never succeeded");
    }

    static JsonNode agent(String service) {
        return agentIn(api, service);
    }

    static JsonNode agentIn(Api api, String service) {
        for (JsonNode a : api.json("/api/agents")) {
            if (a.get("service").asText().equals(service)) {
                return a;
            }
        }
        throw new AssertionError("no agent of " + service + " in " + api.json("/api/agents"));
    }
}
