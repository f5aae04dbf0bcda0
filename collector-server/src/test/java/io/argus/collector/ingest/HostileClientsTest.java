package io.argus.collector.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.argus.collector.Collector;
import io.argus.collector.CollectorConfig;
import io.argus.collector.IngestLimits;
import io.argus.collector.testing.Api;
import io.argus.collector.testing.TestAgent;
import io.argus.collector.testing.TestConfigs;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Clients that never finish what they start: a connection that sends no handshake, or a big frame before it, one
 * that sends a frame a byte at a time, many connections from one address, and many connections each holding an
 * unfinished frame of the largest size. Each is closed or held back within its limit, with a logged and counted
 * reason, memory stays bounded and returns, and the collector goes on serving others.
 */
class HostileClientsTest {
    @TempDir
    Path dataDir;

    @Test
    void bigFrameBeforeTheHandshakeIsRefusedAtOnce() throws Exception {
        try (Collector c = Collector.start(TestConfigs.ephemeral().dataDir(dataDir).build());
             TestAgent a = new TestAgent(c.ingestPort())) {
            a.raw(TestAgent.lengthPrefix(4 * 1024 * 1024));
            assertThat(a.closedByServer(3_000)).as("closed without waiting for 4 MiB").isTrue();
            new Api(c).awaitMetric("argus_collector_frames_rejected_total{reason=\"frame_too_large\"}", 1);
        }
    }

    @Test
    void silentConnectionIsClosedAtTheHandshakeDeadline() throws Exception {
        try (Collector c = Collector.start(TestConfigs.ephemeral().dataDir(dataDir).ingestLimits(IngestLimits.DEFAULTS
                .withHandshake(Duration.ofMillis(500), IngestLimits.DEFAULT_MAX_HANDSHAKE_BYTES)).build());
             TestAgent silent = new TestAgent(c.ingestPort());
             TestAgent partial = new TestAgent(c.ingestPort());
             TestAgent agent = new TestAgent(c.ingestPort())) {
            long start = System.nanoTime();
            partial.raw(TestAgent.lengthPrefix(100)).raw(new byte[10]);
            agent.hello("prompt", "prompt-1");
            assertThat(silent.closedByServer(5_000)).as("silent connection closed at the handshake deadline").isTrue();
            assertThat(partial.closedByServer(5_000)).as("half a handshake closed too").isTrue();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(4));
            new Api(c).awaitMetric("argus_collector_frames_rejected_total{reason=\"handshake_timeout\"}", 2);
            assertThat(agent.closedByServer(200)).as("an agent that said hello stays").isFalse();
        }
    }

    @Test
    void slowFrameIsClosedAtTheFrameDeadline() throws Exception {
        try (Collector c = Collector.start(TestConfigs.ephemeral().dataDir(dataDir).idleTimeout(Duration.ofSeconds(1))
                .ingestLimits(IngestLimits.DEFAULTS.withFrameTimeout(Duration.ofMillis(1_500))).build());
             TestAgent a = new TestAgent(c.ingestPort())) {
            a.hello("slow", "slow-1");
            a.raw(TestAgent.lengthPrefix(100));
            boolean closed = false;
            // a byte every 300 ms: never idle for a second, but the frame never completes
            for (int i = 0; i < 20 && !closed; i++) {
                a.raw(new byte[] {0});
                closed = a.closedByServer(300);
            }
            assertThat(closed).as("closed at the frame deadline").isTrue();
            new Api(c).awaitMetric("argus_collector_frames_rejected_total{reason=\"frame_timeout\"}", 1);
        }
    }

    @Test
    void connectionsPerAddressAreCapped() throws Exception {
        try (Collector c = Collector.start(TestConfigs.ephemeral().dataDir(dataDir)
                .ingestLimits(IngestLimits.DEFAULTS.withMaxConnections(100, 4)).build())) {
            Api api = new Api(c);
            List<TestAgent> open = new ArrayList<>();
            try {
                for (int i = 0; i < 6; i++) {
                    open.add(new TestAgent(c.ingestPort()).hello("many", "many-" + i));
                }
                api.awaitMetric("argus_collector_connections_refused_total{reason=\"too_many_from_address\"}", 2);
                // which ones the collector takes first is up to its event loops: four stay, two are closed
                List<TestAgent> kept = new ArrayList<>();
                for (TestAgent a : open) {
                    if (!a.closedByServer(100)) {
                        kept.add(a);
                    }
                }
                assertThat(kept).hasSize(4);
                kept.get(0).close();
                api.await("/api/agents", agents -> agents.toString().split("\"connected\":true").length - 1 == 3);
                TestAgent again = new TestAgent(c.ingestPort()).hello("many", "many-again");
                open.add(again);
                assertThat(again.closedByServer(300)).as("room again after one closed").isFalse();
            } finally {
                for (TestAgent a : open) {
                    a.close();
                }
            }
        }
    }

    @Test
    void connectionsInAllAreCapped() throws Exception {
        try (Collector c = Collector.start(TestConfigs.ephemeral().dataDir(dataDir)
                .ingestLimits(IngestLimits.DEFAULTS.withMaxConnections(3, 100)).build())) {
            List<TestAgent> open = new ArrayList<>();
            try {
                for (int i = 0; i < 4; i++) {
                    open.add(new TestAgent(c.ingestPort()).hello("all", "all-" + i));
                }
                new Api(c).awaitMetric("argus_collector_connections_refused_total{reason=\"too_many_connections\"}",
                        1);
                // which one is the fourth is up to the event loops: three stay, one is closed
                int closed = 0;
                for (TestAgent a : open) {
                    closed += a.closedByServer(100) ? 1 : 0;
                }
                assertThat(closed).as("connections over the cap of 3").isEqualTo(1);
            } finally {
                for (TestAgent a : open) {
                    a.close();
                }
            }
        }
    }

    @Test
    void unfinishedLargeFramesAreBoundedAcrossConnectionsAndMemoryReturns() throws Exception {
        int connections = 40;
        int frame = 4 * 1024 * 1024;
        long budget = 8L << 20;
        try (Collector c = Collector.start(TestConfigs.ephemeral().dataDir(dataDir)
                .otlpHttpPort(CollectorConfig.ANY_FREE_PORT)
                .ingestLimits(IngestLimits.DEFAULTS.withMaxBufferedBytes(budget)).build())) {
            Api api = new Api(c);
            long before = directBytes();
            List<TestAgent> holders = new ArrayList<>();
            try {
                byte[] chunk = new byte[64 * 1024];
                for (int i = 0; i < connections; i++) {
                    TestAgent a = new TestAgent(c.ingestPort()).hello("holder", "holder-" + i);
                    a.raw(TestAgent.lengthPrefix(frame));
                    holders.add(a);
                }
                // each writes all but the last byte of its frame, as far as the collector reads
                List<Thread> writers = new ArrayList<>();
                for (TestAgent a : holders) {
                    Thread t = new Thread(() -> {
                        try {
                            for (int sent = 0; sent + chunk.length < frame; sent += chunk.length) {
                                a.raw(chunk);
                            }
                        } catch (Exception closedOrBlocked) {
                            // the collector may close or stop reading
                        }
                    });
                    t.setDaemon(true);
                    t.start();
                    writers.add(t);
                }
                Thread.sleep(3_000);
                long held = directBytes() - before;
                // the budget, plus at most one socket read per waiting connection, plus the pool's chunks
                assertThat(held).as("direct memory held by unfinished frames").isLessThan(32L << 20);
                assertThat(api.metric("argus_collector_ingest_buffered_bytes")).isLessThanOrEqualTo(budget);
                assertThat(api.metric("argus_collector_ingest_buffered_waiting")).as("connections held back")
                        .isGreaterThan(connections / 2);
                // a small frame (a heartbeat, a small batch) still goes through
                try (TestAgent small = new TestAgent(c.ingestPort())) {
                    small.hello("small", "small-1");
                    api.await("/api/services", services -> services.toString().contains("\"small\""));
                }
                // an unrelated OTLP request is answered
                HttpResponse<String> otlp = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                                URI.create("http://127.0.0.1:" + c.otlpHttpPort() + "/v1/traces"))
                        .header("Content-Type", "application/x-protobuf")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[0])).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(otlp.statusCode()).isEqualTo(200);
            } finally {
                for (TestAgent a : holders) {
                    a.close();
                }
            }
            long deadline = System.currentTimeMillis() + 10_000;
            long after = directBytes() - before;
            while (after > (16L << 20) && System.currentTimeMillis() < deadline) {
                Thread.sleep(100);
                after = directBytes() - before;
            }
            assertThat(after).as("direct memory after the connections closed").isLessThan(16L << 20);
        }
    }

    static long directBytes() {
        for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (pool.getName().equals("direct")) {
                return pool.getMemoryUsed();
            }
        }
        throw new AssertionError("no direct buffer pool");
    }
}
