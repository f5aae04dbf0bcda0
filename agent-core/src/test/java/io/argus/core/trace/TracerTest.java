package io.argus.core.trace;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class TracerTest {

    private final List<RecordedSpan> finished = new ArrayList<>();

    private Tracer tracer(double rate) {
        return new Tracer(new Sampler(rate), finished::add);
    }

    @Test
    void sampledParentIsHonouredAtZeroPercent() {
        Tracer tracer = tracer(0);
        RecordedSpan server = tracer.startServer("GET", "/a",
                "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "k=v", null);
        assertThat(server).isNotNull();
        assertThat(server.parentSpanId()).isEqualTo(0x00f067aa0ba902b7L);
        assertThat(server.tracestate()).isEqualTo("k=v");
        assertThat(tracer.current()).isSameAs(server);

        RecordedSpan client = tracer.startClient("GET", "example", 80, "http://example/x");
        assertThat(client.traceparent()).startsWith("00-4bf92f3577b34da6a3ce929d0e0e4736-")
                .endsWith("-01").contains(TraceIds.toHex(client.spanId()));
        assertThat(client.parentSpanId()).isEqualTo(server.spanId());
        tracer.end(client, System.nanoTime(), null, false);
        tracer.end(server, System.nanoTime(), null, false);
        assertThat(finished).containsExactly(client, server);
        assertThat(tracer.current()).isNull();
    }

    @Test
    void unsampledParentIsHonouredAtHundredPercent() {
        Tracer tracer = tracer(100);
        assertThat(tracer.startServer("GET", "/a", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00", null, null))
                .isNull();
        assertThat(tracer.startServer("GET", "/a", null, null, "0")).isNull();
        assertThat(tracer.current()).isNull();
    }

    @Test
    void malformedHeaderStartsNewRootWhenSampled() {
        Tracer tracer = tracer(100);
        RecordedSpan span = tracer.startServer("GET", "/a", "not-a-traceparent", null, "also-bad");
        assertThat(span).isNotNull();
        assertThat(span.parentSpanId()).isZero();
        assertThat(span.traceIdHigh() | span.traceIdLow()).isNotZero();
        tracer.end(span, System.nanoTime(), new IllegalStateException("x"), false);
        assertThat(span.status()).isEqualTo(RecordedSpan.STATUS_ERROR);
        assertThat(span.error()).isEqualTo(IllegalStateException.class.getName());
    }

    @Test
    void noCurrentSpanMeansNoClientSpan() {
        Tracer tracer = tracer(100);
        assertThat(tracer.startClient("GET", "h", 1, "u")).isNull();
    }

    @Test
    void detachRestoresPreviousContextAndEndingTwiceRecordsOnce() {
        Tracer tracer = tracer(100);
        RecordedSpan outer = tracer.startServer("GET", "/outer", null, null, null);
        RecordedSpan inner = tracer.startInternal("work");
        assertThat(inner.parentSpanId()).isEqualTo(outer.spanId());
        tracer.detach(inner);
        assertThat(tracer.current()).isSameAs(outer);
        tracer.end(inner, System.nanoTime(), null, false);
        tracer.end(inner, System.nanoTime(), null, false);
        assertThat(finished).containsExactly(inner);
        tracer.end(outer, System.nanoTime(), null, false);
        assertThat(tracer.current()).isNull();
    }

    @org.junit.jupiter.api.AfterEach
    void noContextLeaksBetweenTests() {
        assertThat(tracer(0).current()).isNull();
    }

    @Test
    void idsForLogCorrelationMatchTheTraceparent() {
        Tracer tracer = new Tracer(new Sampler(100), span -> { });
        RecordedSpan span = tracer.startServer("GET", "/", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", null, null);
        assertThat(span.traceIdHex()).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
        assertThat(span.spanIdHex()).hasSize(16);
        assertThat(span.traceparent()).isEqualTo("00-" + span.traceIdHex() + "-" + span.spanIdHex() + "-01");
        tracer.end(span, System.nanoTime(), null, false);
    }
}
