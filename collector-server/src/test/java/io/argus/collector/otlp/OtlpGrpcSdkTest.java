package io.argus.collector.otlp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.collector.Collector;
import io.argus.collector.CollectorConfig;
import io.argus.collector.security.HttpCredentials;
import io.argus.collector.security.TlsSettings;
import io.argus.collector.testing.Api;
import io.argus.collector.testing.TestCertificates;
import io.argus.collector.testing.TestConfigs;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.exporter.otlp.metrics.OtlpGrpcMetricExporter;
import io.opentelemetry.exporter.otlp.trace.OtlpGrpcSpanExporter;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.export.PeriodicMetricReader;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The OpenTelemetry Java SDK's gRPC exporters send traces and metrics, plain and gzip, to the collector's OTLP/gRPC
 * receiver; what is stored is what the OTLP/HTTP path stores. With TLS and a bearer token the same exporter gets in
 * with the token and is refused (UNAUTHENTICATED, counted) without it.
 */
class OtlpGrpcSdkTest {
    @TempDir
    Path dir;

    static String traceThrough(SpanExporter exporter, String service, String route) {
        SdkTracerProvider provider = SdkTracerProvider.builder()
                .setResource(OtlpSdkTest.resource(service, service + "-1"))
                .addSpanProcessor(SimpleSpanProcessor.create(exporter)).build();
        try {
            Tracer tracer = provider.get("io.argus.test");
            Span server = tracer.spanBuilder("POST " + route).setSpanKind(SpanKind.SERVER)
                    .setAttribute(OtlpSdkTest.METHOD, "POST").setAttribute(OtlpSdkTest.ROUTE, route)
                    .setAttribute(OtlpSdkTest.STATUS, 500L).startSpan();
            server.setStatus(StatusCode.ERROR, "boom");
            server.end();
            CompletableResultCode flushed = provider.forceFlush().join(20, TimeUnit.SECONDS);
            assertThat(flushed.isSuccess()).as("export of %s", service).isTrue();
            return server.getSpanContext().getTraceId();
        } finally {
            provider.shutdown().join(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void tracesAndMetricsPlainAndGzip() throws Exception {
        try (Collector collector = Collector.start(TestConfigs.ephemeral().otlpGrpcPort(CollectorConfig.ANY_FREE_PORT)
                .dataDir(dir).build())) {
            Api api = new Api(collector);
            String endpoint = "http://127.0.0.1:" + collector.otlpGrpcPort();
            String plain = traceThrough(OtlpGrpcSpanExporter.builder().setEndpoint(endpoint)
                    .setTimeout(Duration.ofSeconds(10)).build(), "grpc-plain", "/pay");
            String gzip = traceThrough(OtlpGrpcSpanExporter.builder().setEndpoint(endpoint).setCompression("gzip")
                    .setTimeout(Duration.ofSeconds(10)).build(), "grpc-gzip", "/refund");

            assertThat(collector.flush(Duration.ofSeconds(10))).isTrue();
            JsonNode spans = api.json("/api/traces/" + plain).get("spans");
            assertThat(spans.get(0).get("service").asText()).isEqualTo("grpc-plain");
            assertThat(spans.get(0).get("status").asText()).isEqualTo("ERROR");
            assertThat(spans.get(0).get("tags").get("otel.status_description").asText()).isEqualTo("boom");
            assertThat(api.json("/api/traces/" + gzip).get("spans").get(0)
                    .get("name").asText()).isEqualTo("POST /refund");
            // the same mapping as OTLP/HTTP: call metrics derived from the server span
            JsonNode cells = api.await("/api/metrics/http?service=grpc-plain&kind=server", j -> j.size() == 1);
            assertThat(cells.get(0).get("target").asText()).isEqualTo("/pay");
            assertThat(cells.get(0).get("errors").asLong()).isEqualTo(1);
            assertThat(OtlpSdkTest.agentIn(api, "grpc-gzip").get("agentVersion").asText()).startsWith("otlp");

            OtlpGrpcMetricExporter metricExporter = OtlpGrpcMetricExporter.builder().setEndpoint(endpoint)
                    .setCompression("gzip").setTimeout(Duration.ofSeconds(10)).build();
            SdkMeterProvider meters = SdkMeterProvider.builder()
                    .setResource(OtlpSdkTest.resource("grpc-metrics", "m-1"))
                    .registerMetricReader(PeriodicMetricReader.builder(metricExporter).setInterval(Duration.ofHours(1))
                            .build()).build();
            try {
                meters.get("io.argus.test").gaugeBuilder("jvm.cpu.recent_utilization")
                        .buildWithCallback(m -> m.record(0.5));
                DoubleHistogram duration = meters.get("io.argus.test").histogramBuilder("http.server.request.duration")
                        .setUnit("s").build();
                duration.record(0.02, Attributes.of(OtlpSdkTest.METHOD, "GET", OtlpSdkTest.ROUTE, "/items",
                        OtlpSdkTest.STATUS, 200L));
                OtlpSdkTest.flush(meters);
            } finally {
                meters.shutdown().join(10, TimeUnit.SECONDS);
            }
            JsonNode jvm = api.await("/api/metrics/jvm?service=grpc-metrics", j -> j.get("instances").size() == 1);
            assertThat(jvm.get("instances").get(0).get("latest").get("jvm.cpu.process_load").asDouble())
                    .isEqualTo(0.5);
            assertThat(api.json("/api/metrics/http?service=grpc-metrics&kind=server").get(0).get("target").asText())
                    .isEqualTo("/items");
        }
    }

    @Test
    void tlsAndBearerTokenAsOnOtlpHttp() throws Exception {
        TestCertificates certs = TestCertificates.get();
        try (Collector collector = Collector.start(TestConfigs.ephemeral().otlpGrpcPort(CollectorConfig.ANY_FREE_PORT)
                .httpCredentials(HttpCredentials.token("grpc-token"))
                .tls(TlsSettings.pkcs12(certs.keystore(), TestCertificates.PASSWORD)).dataDir(dir).build())) {
            String endpoint = "https://localhost:" + collector.otlpGrpcPort();
            byte[] ca = Files.readAllBytes(certs.caCertificatePem());
            String traceId = traceThrough(OtlpGrpcSpanExporter.builder().setEndpoint(endpoint)
                    .setTrustedCertificates(ca).addHeader("Authorization", "Bearer grpc-token")
                    .setTimeout(Duration.ofSeconds(10)).build(), "grpc-tls", "/secure");
            Api api = new Api(collector, HttpClient.newBuilder().sslContext(certs.clientContext()).build(),
                    "Bearer grpc-token");
            assertThat(collector.flush(Duration.ofSeconds(10))).isTrue();
            assertThat(api.json("/api/traces/" + traceId).get("spans")).hasSize(1);

            SdkTracerProvider refused = SdkTracerProvider.builder()
                    .addSpanProcessor(SimpleSpanProcessor.create(OtlpGrpcSpanExporter.builder().setEndpoint(endpoint)
                            .setTrustedCertificates(ca).addHeader("Authorization", "Bearer wrong")
                            .setTimeout(Duration.ofSeconds(10)).build())).build();
            try {
                refused.get("t").spanBuilder("x").startSpan().end();
                assertThat(refused.forceFlush().join(20, TimeUnit.SECONDS).isSuccess()).isFalse();
            } finally {
                refused.shutdown().join(10, TimeUnit.SECONDS);
            }
            assertThat(api.metric("argus_collector_otlp_grpc_rejected_total{reason=\"unauthenticated\"}"))
                    .isEqualTo(1);
        }
    }
}
