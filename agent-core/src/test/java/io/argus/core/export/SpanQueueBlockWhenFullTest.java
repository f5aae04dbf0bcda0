package io.argus.core.export;

import io.argus.core.AgentCounters;
import io.argus.core.config.AgentConfig;
import io.argus.core.config.AgentSettings;
import io.argus.core.metrics.CallMetricsTable;
import io.argus.core.trace.RecordedSpan;
import io.argus.core.trace.Sampler;
import io.argus.core.trace.Tracer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code argus.exporter.blockWhenFull}: off (the default), a full queue drops and counts; on, the application
 * thread waits for room while the exporter drains, and drops only when nobody drains.
 */
class SpanQueueBlockWhenFullTest {

    /** One finished span, offered again and again (the queue holds references). */
    private static final RecordedSpan SPAN = finishedSpan();

    private static RecordedSpan finishedSpan() {
        List<RecordedSpan> out = new ArrayList<RecordedSpan>();
        Tracer tracer = new Tracer(new Sampler(100), out::add);
        tracer.end(tracer.startServer("GET", "/x", null, null, null), System.nanoTime(), null, false);
        return out.get(0);
    }

    private static RecordedSpan span() {
        return SPAN;
    }

    @Test
    void byDefaultAFullQueueDropsAndCountsEvenWhileTheExporterDrains() {
        AgentCounters counters = new AgentCounters();
        SpanQueue queue = new SpanQueue(16, counters);
        queue.draining(true);
        for (int i = 0; i < 20; i++) {
            queue.accept(span());
        }
        assertThat(counters.droppedSpans.get()).isEqualTo(4);
        assertThat(queue.size()).isEqualTo(16);
    }

    @Test
    void blockingWaitsForRoomWhileTheExporterDrains() throws Exception {
        AgentCounters counters = new AgentCounters();
        SpanQueue queue = new SpanQueue(16, counters, true);
        queue.draining(true);
        int total = 20_000;
        List<RecordedSpan> drained = new ArrayList<RecordedSpan>();
        Thread consumer = new Thread(() -> {
            while (drained.size() < total) {
                if (queue.drainTo(drained, 4) == 0) {
                    Thread.yield();
                }
            }
        }, "test-drain");
        consumer.start();
        for (int i = 0; i < total; i++) {
            queue.accept(span());
        }
        consumer.join(20_000);
        assertThat(counters.droppedSpans.get()).isZero();
        assertThat(drained).hasSize(total);
    }

    /** Fills a blocking queue of 16 that nobody drains, offers one more span and returns how long that took. */
    private static long nanosForOneSpanTooMany(boolean draining, AgentCounters counters) {
        SpanQueue queue = new SpanQueue(16, counters, true);
        queue.draining(draining);
        for (int i = 0; i < 16; i++) {
            queue.accept(span());
        }
        long start = System.nanoTime();
        queue.accept(span());
        return System.nanoTime() - start;
    }

    @Test
    void blockingDropsAtOnceWhenTheExporterIsNotDraining() {
        AgentCounters counters = new AgentCounters();
        assertThat(nanosForOneSpanTooMany(false, counters)).isLessThan(SpanQueue.MAX_WAIT_NANOS / 2);
        assertThat(counters.droppedSpans.get()).isEqualTo(1);
    }

    @Test
    void blockingGivesUpAfterItsLimitWhenTheDrainStalls() {
        AgentCounters counters = new AgentCounters();
        assertThat(nanosForOneSpanTooMany(true, counters)).isGreaterThanOrEqualTo(SpanQueue.MAX_WAIT_NANOS);
        assertThat(counters.droppedSpans.get()).isEqualTo(1);
    }

    @Test
    void withTheSettingTheExporterGetsEverySpan() {
        Properties props = new Properties();
        props.setProperty("argus.exporter.mode", "discard");
        props.setProperty("argus.exporter.blockWhenFull", "true");
        props.setProperty("argus.exporter.queueSize", "16");
        props.setProperty("argus.exporter.batchSize", "8");
        props.setProperty("argus.metrics.interval", "1h");
        AgentSettings settings = new AgentSettings(new AgentConfig(props, new HashMap<String, String>(), new Properties()));
        assertThat(settings.blockWhenFull).isTrue();
        AgentCounters counters = new AgentCounters();
        SpanQueue queue = new SpanQueue(settings.queueSize, counters, settings.blockWhenFull);
        Tracer tracer = new Tracer(new Sampler(100), queue);
        Exporter exporter = new Exporter(settings, queue, new CallMetricsTable(10), new CallMetricsTable(10), counters,
                "test");
        exporter.start();
        try {
            int total = 50_000;
            for (int i = 0; i < total; i++) {
                RecordedSpan s = tracer.startServer("GET", "/x", null, null, null);
                tracer.end(s, System.nanoTime(), null, false);
            }
            exporter.shutdown(5000);
            assertThat(counters.droppedSpans.get()).isZero();
            assertThat(counters.sentSpans.get()).isEqualTo(total);
        } finally {
            exporter.shutdown(1000);
        }
    }

    @Test
    void theSettingIsOffByDefault() {
        AgentSettings settings = new AgentSettings(new AgentConfig(new Properties(), new HashMap<String, String>(),
                new Properties()));
        assertThat(settings.blockWhenFull).isFalse();
    }
}
