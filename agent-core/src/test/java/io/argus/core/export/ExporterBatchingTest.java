package io.argus.core.export;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The exporter sends a batch as soon as it is full, what is queued once the delay has passed, and sleeps in
 * between instead of polling.
 */
class ExporterBatchingTest {

    private FakeCollector collector;
    private TestExporter agent;
    private Exporter exporter;

    @AfterEach
    void stop() throws Exception {
        if (agent != null) {
            agent.shutdown();
        }
        if (collector != null) {
            collector.close();
        }
    }

    private void start(int batchSize, String maxDelay) throws Exception {
        collector = new FakeCollector(0);
        startExporter(collector.port(), batchSize, maxDelay, 8192);
        await(() -> collector.handshakes() > 0);
    }

    private void startExporter(int port, int batchSize, String maxDelay, int queueSize) {
        agent = new TestExporter("127.0.0.1:" + port, batchSize, maxDelay, queueSize);
        exporter = agent.exporter;
    }

    private void spans(int n) {
        agent.spans(n);
    }

    private List<Integer> frames() {
        return collector.spanFrames();
    }

    private static void await(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("condition not met within 20 s").isLessThan(deadline);
            Thread.sleep(5);
        }
    }

    @Test
    void aFullBatchGoesOutWithoutWaitingForTheDelay() throws Exception {
        start(50, "60s");
        spans(50);
        await(() -> !frames().isEmpty());
        assertThat(frames()).containsExactly(50);

        // a partial batch waits for the delay: a minute here
        spans(20);
        Thread.sleep(500);
        assertThat(frames()).containsExactly(50);
        spans(30);
        await(() -> frames().size() == 2);
        assertThat(frames()).containsExactly(50, 50);
    }

    @Test
    void whatIsQueuedGoesOutOnceTheDelayHasPassed() throws Exception {
        start(512, "300ms");
        spans(5);
        await(() -> !frames().isEmpty());
        assertThat(frames()).containsExactly(5);
        spans(3);
        await(() -> frames().size() == 2);
        assertThat(frames()).containsExactly(5, 3);
    }

    @Test
    void anIdleExporterSleepsInsteadOfPolling() throws Exception {
        start(512, "1s");
        long before = exporter.iterations();
        Thread.sleep(2500);
        // one wake-up per delay (and none per application span below the batch size)
        spans(100);
        Thread.sleep(500);
        assertThat(exporter.iterations() - before).isBetween(1L, 6L);
    }

    @Test
    void spansWaitInTheBoundedQueueDuringAnOutageAndFlowWhenTheCollectorComes() throws Exception {
        int port = FakeCollector.freePort();
        startExporter(port, 512, "200ms", 64);
        spans(300); // nobody listens: 64 wait in the queue, the rest are dropped and counted
        assertThat(agent.counters.droppedSpans.get()).isEqualTo(300 - 64);
        Thread.sleep(300);
        collector = new FakeCollector(port);
        await(() -> collector.handshakes() > 0); // reconnected within the 1 s backoff
        await(() -> collector.spans() == 64);
        spans(10);
        await(() -> collector.spans() == 74);
        assertThat(agent.counters.sentSpans.get()).isEqualTo(74);
    }
}
