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

    @Test
    void aShutdownThatTimesOutNeverSharesTheExporterThreadsBatchOrSocket() throws Exception {
        listen(0);
        Properties props = new Properties();
        props.setProperty("argus.collector.address", "127.0.0.1:" + server.getLocalPort());
        props.setProperty("argus.metrics.interval", "100ms");
        AgentSettings settings = new AgentSettings(new AgentConfig(props, new HashMap<String, String>(), new Properties()));
        counters = new AgentCounters();
        queue = new SpanQueue(settings.queueSize, counters);
        exporter = new Exporter(settings, queue, new CallMetricsTable(10), new CallMetricsTable(10), counters, "test");
        java.util.Set<String> samplers = java.util.concurrent.ConcurrentHashMap.newKeySet();
        java.util.concurrent.CountDownLatch busy = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        exporter.addGaugeSource(sink -> {
            samplers.add(Thread.currentThread().getName());
            if (Thread.currentThread().getName().equals("argus-exporter")) {
                busy.countDown();
                try {
                    release.await(20, java.util.concurrent.TimeUnit.SECONDS); // the exporter thread is slow at exit
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        });
        exporter.start();
        assertThat(busy.await(20, java.util.concurrent.TimeUnit.SECONDS)).isTrue();

        exporter.shutdown(200);
        assertThat(samplers).as("threads that used the exporter's metrics encoder").containsExactly("argus-exporter");
        release.countDown();
    }
}
