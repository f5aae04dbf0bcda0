package io.argus.core.export;

import io.argus.core.AgentCounters;
import io.argus.core.config.AgentConfig;
import io.argus.core.config.AgentSettings;
import io.argus.core.metrics.CallMetricsTable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
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
        await(() -> agent.counters.sentSpans.get() == 74); // sent once acknowledged
    }

    @Test
    void aShutdownThatTimesOutNeverSharesTheExporterThreadsBatchOrSocket() throws Exception {
        collector = new FakeCollector(0);
        Properties props = new Properties();
        props.setProperty("argus.collector.address", "127.0.0.1:" + collector.port());
        props.setProperty("argus.metrics.interval", "100ms");
        AgentSettings settings = new AgentSettings(new AgentConfig(props, new HashMap<String, String>(), new Properties()));
        AgentCounters counters = new AgentCounters();
        Exporter slowAtExit = new Exporter(settings, new SpanQueue(settings.queueSize, counters), new CallMetricsTable(10),
                new CallMetricsTable(10), counters, "test");
        Set<String> samplers = ConcurrentHashMap.newKeySet();
        CountDownLatch busy = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        slowAtExit.addGaugeSource(sink -> {
            samplers.add(Thread.currentThread().getName());
            if (Thread.currentThread().getName().equals("argus-exporter")) {
                busy.countDown();
                try {
                    release.await(20, TimeUnit.SECONDS); // the exporter thread is slow at exit
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        });
        slowAtExit.start();
        try {
            assertThat(busy.await(20, TimeUnit.SECONDS)).isTrue();
            slowAtExit.shutdown(200);
            assertThat(samplers).as("threads that used the exporter's metrics encoder").containsExactly("argus-exporter");
        } finally {
            release.countDown();
        }
    }
}
