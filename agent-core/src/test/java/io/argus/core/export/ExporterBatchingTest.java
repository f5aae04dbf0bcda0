package io.argus.core.export;

import io.argus.core.AgentCounters;
import io.argus.core.config.AgentConfig;
import io.argus.core.config.AgentSettings;
import io.argus.core.metrics.CallMetricsTable;
import io.argus.core.trace.RecordedSpan;
import io.argus.core.trace.Sampler;
import io.argus.core.trace.Tracer;
import io.argus.protocol.Frame;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Properties;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The exporter sends a batch as soon as it is full, what is queued once the delay has passed, and sleeps in
 * between instead of polling.
 */
class ExporterBatchingTest {

    /** Span counts of the span frames a fake collector received, in order. */
    private final List<Integer> spanFrames = new ArrayList<Integer>();
    private volatile boolean handshakeSeen;
    private ServerSocket server;
    private Thread reader;
    private Exporter exporter;
    private SpanQueue queue;
    private Tracer tracer;
    private AgentCounters counters;

    @AfterEach
    void stop() throws Exception {
        if (exporter != null) {
            exporter.shutdown(1000);
        }
        if (server != null) {
            server.close();
        }
        if (reader != null) {
            reader.join(5000);
        }
    }

    private void start(int batchSize, String maxDelay) throws Exception {
        listen(0);
        startExporter(server.getLocalPort(), batchSize, maxDelay, 8192);
        await(() -> handshakeSeen);
    }

    private void listen(int port) throws IOException {
        server = new ServerSocket(port, 5, InetAddress.getLoopbackAddress());
        reader = new Thread(() -> {
            try (Socket s = server.accept()) {
                DataInputStream in = new DataInputStream(s.getInputStream());
                while (true) {
                    byte[] body = new byte[in.readInt()];
                    in.readFully(body);
                    Frame frame = Frame.parseFrom(body);
                    if (frame.hasHandshake()) {
                        handshakeSeen = true;
                    } else if (frame.hasSpans()) {
                        synchronized (spanFrames) {
                            spanFrames.add(frame.getSpans().getSpansCount());
                        }
                    }
                }
            } catch (IOException end) {
                // closed
            }
        }, "fake-collector");
        reader.start();
    }

    private void startExporter(int port, int batchSize, String maxDelay, int queueSize) {
        Properties props = new Properties();
        props.setProperty("argus.collector.address", "127.0.0.1:" + port);
        props.setProperty("argus.exporter.batchSize", Integer.toString(batchSize));
        props.setProperty("argus.exporter.maxDelay", maxDelay);
        props.setProperty("argus.exporter.queueSize", Integer.toString(queueSize));
        props.setProperty("argus.exporter.maxBackoff", "1s");
        props.setProperty("argus.metrics.interval", "1h");
        AgentSettings settings = new AgentSettings(new AgentConfig(props, new HashMap<String, String>(), new Properties()));
        counters = new AgentCounters();
        queue = new SpanQueue(settings.queueSize, counters);
        tracer = new Tracer(new Sampler(100), queue);
        exporter = new Exporter(settings, queue, new CallMetricsTable(10), new CallMetricsTable(10), counters, "test");
        exporter.start();
    }

    private void spans(int n) {
        for (int i = 0; i < n; i++) {
            RecordedSpan span = tracer.startServer("GET", "/x", null, null, null);
            tracer.end(span, System.nanoTime(), null, false);
        }
    }

    private List<Integer> frames() {
        synchronized (spanFrames) {
            return new ArrayList<Integer>(spanFrames);
        }
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
        int port;
        try (ServerSocket probe = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        startExporter(port, 512, "200ms", 64);
        spans(300); // nobody listens: 64 wait in the queue, the rest are dropped and counted
        assertThat(counters.droppedSpans.get()).isEqualTo(300 - 64);
        Thread.sleep(300);
        listen(port);
        await(() -> handshakeSeen); // reconnected within the 1 s backoff
        await(() -> frames().stream().mapToInt(Integer::intValue).sum() == 64);
        spans(10);
        await(() -> frames().stream().mapToInt(Integer::intValue).sum() == 74);
        assertThat(counters.sentSpans.get()).isEqualTo(74);
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
