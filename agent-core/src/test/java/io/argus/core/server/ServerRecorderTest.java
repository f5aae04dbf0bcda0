package io.argus.core.server;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.HeaderGetter;
import io.argus.core.metrics.CallMetricsTable;
import io.argus.core.trace.RecordedSpan;
import io.argus.core.trace.Sampler;
import io.argus.core.trace.Tracer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Inbound propagation read through a getter, routes, and the sampling switch. */
class ServerRecorderTest {

    private static final HeaderGetter<Map<String, String>> HEADERS = (headers, name) -> headers.get(name);
    private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String SAMPLED = "00-" + TRACE + "-00f067aa0ba902b7-01";
    private static final String UNSAMPLED = "00-" + TRACE + "-00f067aa0ba902b7-00";

    private final List<RecordedSpan> spans = new ArrayList<>();
    private final CallMetricsTable metrics = CallMetricsTable.forHttp(100);

    private ServerRecorder recorder(double rate, boolean honorInbound) {
        return new ServerRecorder(new Tracer(new Sampler(rate), spans::add, honorInbound), metrics,
                new RouteNormalizer(true));
    }

    private void request(ServerRecorder recorder, String path, Map<String, String> headers) {
        ActiveSpan span = recorder.start("GET", path, System.nanoTime(), headers, HEADERS);
        recorder.end(span, System.nanoTime(), "GET", path, 200, null);
    }

    @Test
    void metricsAndSpansAreNamedByTheRouteAndKeepTheRawPath() {
        ServerRecorder recorder = recorder(100, true);
        request(recorder, "/api/orders/1", Map.of());
        request(recorder, "/api/orders/2", Map.of());
        request(recorder(0, true), "/api/orders/3", Map.of());
        assertThat(metrics.takeSnapshots()).extracting(s -> s.target + " " + s.count)
                .containsExactly("/api/orders/{id} 3");
        assertThat(spans).extracting(RecordedSpan::displayName).containsExactly("GET /api/orders/{id}", "GET /api/orders/{id}");
        assertThat(spans).extracting(RecordedSpan::target).containsExactly("/api/orders/1", "/api/orders/2");
        assertThat(spans).extracting(RecordedSpan::route).containsOnly("/api/orders/{id}");
    }

    @Test
    void readsW3cThenB3SingleThenB3Multi() {
        ServerRecorder recorder = recorder(0, true);
        request(recorder, "/w3c", Map.of("traceparent", SAMPLED, "tracestate", "v=1"));
        request(recorder, "/b3", Map.of("b3", TRACE + "-00f067aa0ba902b7-1"));
        request(recorder, "/multi", Map.of("X-B3-TraceId", TRACE, "X-B3-SpanId", "00f067aa0ba902b7", "X-B3-Sampled", "1"));
        request(recorder, "/none", Map.of());
        assertThat(spans).extracting(RecordedSpan::target).containsExactly("/w3c", "/b3", "/multi");
        assertThat(spans).allSatisfy(s -> assertThat(s.parentSpanId()).isEqualTo(0x00f067aa0ba902b7L));
        assertThat(spans.get(0).tracestate()).isEqualTo("v=1");
    }

    @Test
    void anEdgeServiceCanIgnoreItsCallersSamplingDecisions() {
        request(recorder(0, false), "/forced", Map.of("traceparent", SAMPLED));
        assertThat(spans).as("a sampled caller does not force tracing at 0%").isEmpty();
        request(recorder(100, false), "/declined", Map.of("traceparent", UNSAMPLED));
        assertThat(spans).as("sampled by its own rate, still in the caller's trace").hasSize(1);
        assertThat(spans.get(0).parentSpanId()).isEqualTo(0x00f067aa0ba902b7L);
        request(recorder(0, true), "/honoured", Map.of("traceparent", SAMPLED));
        assertThat(spans).hasSize(2);
    }

    @Test
    void aFrameworkTemplateNamesTheRequestTracedOrNot() {
        ServerRecorder traced = recorder(100, true);
        ActiveSpan span = traced.start("GET", "/api/orders/abc", System.nanoTime(), Map.of(), HEADERS);
        traced.route("/api/orders/{orderId}");
        traced.end(span, System.nanoTime(), "GET", "/api/orders/abc", 200, null);
        ServerRecorder untraced = recorder(0, true);
        ActiveSpan none = untraced.start("GET", "/api/orders/xyz", System.nanoTime(), Map.of(), HEADERS);
        untraced.route("/api/orders/{orderId}");
        untraced.end(none, System.nanoTime(), "GET", "/api/orders/xyz", 200, null);
        // the next request on the thread names no template: back to the normalised path
        request(untraced, "/api/orders/7", Map.of());
        assertThat(metrics.takeSnapshots()).extracting(s -> s.target + " " + s.count)
                .containsExactlyInAnyOrder("/api/orders/{orderId} 2", "/api/orders/{id} 1");
        assertThat(spans).extracting(RecordedSpan::displayName).containsExactly("GET /api/orders/{orderId}");
        assertThat(spans.get(0).target()).isEqualTo("/api/orders/abc");
    }
}
