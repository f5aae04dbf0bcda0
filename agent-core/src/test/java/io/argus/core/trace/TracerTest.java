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
    void theFirstTraceRunsItsActionOnceOnItsOwnThreadBeforeTheSpanIsReturned() throws Exception {
        Tracer tracer = tracer(0);
        List<String> ran = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.concurrent.CountDownLatch inAction = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        tracer.onFirstTrace(() -> {
            ran.add(Thread.currentThread().getName());
            inAction.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertThat(tracer.startServer("GET", "/a", null, null, null)).as("not sampled at 0%").isNull();
        assertThat(tracer.startServer("GET", "/a", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00", null,
                null)).as("an unsampled caller").isNull();
        assertThat(ran).as("nothing traced yet").isEmpty();

        List<RecordedSpan> started = new java.util.concurrent.CopyOnWriteArrayList<>();
        Thread first = new Thread(() -> started.add(tracer.startServer("GET", "/a",
                "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", null, null)), "first-traced");
        first.start();
        inAction.await();
        Thread second = new Thread(() -> started.add(tracer.startServer("GET", "/b",
                "00-4bf92f3577b34da6a3ce929d0e0e4737-00f067aa0ba902b8-01", null, null)), "second-traced");
        second.start();
        second.join(200);
        assertThat(started).as("a trace started meanwhile waits for the first one's action").isEmpty();
        release.countDown();
        first.join();
        second.join();
        assertThat(started).hasSize(2).doesNotContainNull();
        assertThat(ran).containsExactly("first-traced");
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

    @Test
    void spansStartAtTheTimeTheCallerAlreadyReadAndTheServerEndsWithTheCallersClock() {
        Tracer tracer = tracer(100);
        long requestStart = System.nanoTime() - 5_000_000L; // the server's own begin time, read earlier
        RecordedSpan server = tracer.startServer("GET", "/a", requestStart, null, null, null, null);
        long callStart = requestStart + 1_000_000L;
        RecordedSpan client = tracer.startClient("GET", "h", 80, "http://h/", callStart);
        tracer.end(client, callStart + 2_000_000L, null, false);
        tracer.end(server, requestStart + 4_000_000L, null, false);

        assertThat(client.durationNanos()).isEqualTo(2_000_000L);
        assertThat(server.durationNanos()).isEqualTo(4_000_000L);
        assertThat(client.startEpochNanos() - server.startEpochNanos()).isEqualTo(1_000_000L);
        long wallClockNanos = System.currentTimeMillis() * 1_000_000L;
        assertThat(server.startEpochNanos()).isBetween(wallClockNanos - 60_000_000_000L, wallClockNanos);
    }

    @Test
    void endingAClientSpanLeavesTheThreadsContextAlone() {
        Tracer tracer = tracer(100);
        RecordedSpan server = tracer.startServer("GET", "/a", null, null, null);
        RecordedSpan client = tracer.startClient("GET", "h", 80, "http://h/");
        tracer.end(client, System.nanoTime(), null, false);
        assertThat(tracer.current()).isSameAs(server);
        tracer.end(server, System.nanoTime(), null, false);
        assertThat(tracer.current()).isNull();
    }

    @Test
    void aThreadThatOnlyAsksIsGivenNoContext() throws Exception {
        Tracer tracer = tracer(100);
        Thread asker = new Thread(() -> {
            assertThat(tracer.current()).isNull();
            assertThat(tracer.attach(null)).isNull();
            assertThat(tracer.startClient("GET", "h", 1, "u")).isNull();
            assertThat(Tracer.existingContext()).isNull();
        });
        Throwable[] failure = new Throwable[1];
        asker.setUncaughtExceptionHandler((t, e) -> failure[0] = e);
        asker.start();
        asker.join();
        assertThat(failure[0]).isNull();
    }

    @Test
    void theRouteTemplateLivesInTheThreadsContextUntilTaken() {
        ThreadContext context = Tracer.context();
        context.routeTemplate("/orders/{id}");
        assertThat(Tracer.existingContext()).isSameAs(context);
        assertThat(context.takeRouteTemplate()).isEqualTo("/orders/{id}");
        assertThat(context.takeRouteTemplate()).isNull();
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
