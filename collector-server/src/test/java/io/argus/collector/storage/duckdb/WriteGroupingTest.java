package io.argus.collector.storage.duckdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.argus.collector.Collector;
import io.argus.collector.storage.Source;
import io.argus.collector.testing.Api;
import io.argus.collector.testing.Spans;
import io.argus.collector.testing.TestAgent;
import io.argus.collector.testing.TestConfigs;
import io.argus.protocol.SpanBatch;
import io.argus.protocol.SpanKind;
import io.argus.protocol.SpanStatus;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.duckdb.DuckDBConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The writer groups many small batches into one transaction: a cycle commits when it holds its size bound,
 * when its time bound has passed, at a flush request, or at the stop, and nothing accepted is lost.
 */
class WriteGroupingTest {
    static final long HOUR_MILLIS = 3_600_000L;
    static final Source SOURCE = new Source("svc", "svc-1");

    @TempDir
    Path dir;

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private DuckDBConnection root;
    private WriteQueue queue;
    private Thread writerThread;
    private long nextSpanId = 1;

    @AfterEach
    void stopWriter() throws Exception {
        if (writerThread != null && writerThread.isAlive()) {
            queue.put(new WriteTask.Stop());
            writerThread.join(10_000);
        }
        if (root != null) {
            root.close();
        }
    }

    private void startWriter(int maxRows, long maxMillis) throws Exception {
        root = (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:" + dir.resolve("test.duckdb"));
        DuckDbSchema.configure(root, dir, DuckDbSettings.DEFAULTS);
        DuckDbSchema.create(root);
        queue = new WriteQueue(100_000);
        DuckDbWriter writer = new DuckDbWriter(() -> (DuckDBConnection) root.duplicate(), dir, queue,
                new StorageHealth(meters), meters, maxRows, maxMillis);
        writerThread = new Thread(writer, "test-writer");
        writerThread.start();
    }

    private SpanBatch batch(int spans) {
        SpanBatch.Builder b = SpanBatch.newBuilder();
        for (int i = 0; i < spans; i++) {
            long id = nextSpanId++;
            b.addSpans(Spans.span(1, id, id, 0, SpanKind.SPAN_KIND_SERVER, "GET /x", 1_700_000_000_000_000_000L + id,
                    1_000, SpanStatus.SPAN_STATUS_OK, "k", "v"));
        }
        return b.build();
    }

    private void offer(int spans) {
        assertThat(queue.offer(new WriteTask.Spans(SOURCE, batch(spans)))).isTrue();
    }

    private double stored() {
        return meters.get("argus.collector.spans.stored").counter().count();
    }

    private long cycles() {
        return meters.get("argus.collector.storage.write").timer().count();
    }

    private long rowsInTable() throws Exception {
        try (Statement st = root.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM spans")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static void await(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("condition not met within 20 s").isLessThan(deadline);
            Thread.sleep(10);
        }
    }

    @Test
    void manySmallBatchesShareOneCommitUpToTheSizeBound() throws Exception {
        startWriter(100, HOUR_MILLIS);
        for (int i = 0; i < 10; i++) {
            offer(10);
        }
        await(() -> cycles() == 1);
        assertThat(stored()).isEqualTo(100);
        assertThat(rowsInTable()).isEqualTo(100);

        // below the size bound, with an hour to go: the next batch waits in the open cycle
        offer(5);
        Thread.sleep(300);
        assertThat(stored()).isEqualTo(100);
        assertThat(rowsInTable()).isEqualTo(100);
    }

    @Test
    void aPartialCycleCommitsWhenItsTimeBoundHasPassed() throws Exception {
        startWriter(1_000_000, 400);
        long start = System.nanoTime();
        offer(5);
        offer(5);
        offer(5);
        assertThat(stored()).isZero(); // the cycle cannot end before its 400 ms
        await(() -> stored() == 15);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isGreaterThanOrEqualTo(400);
        assertThat(rowsInTable()).isEqualTo(15);
    }

    @Test
    void aFlushRequestEndsTheCycleAtOnce() throws Exception {
        startWriter(1_000_000, HOUR_MILLIS);
        offer(7);
        offer(3);
        CompletableFuture<Void> done = new CompletableFuture<>();
        queue.put(new WriteTask.Flush(done));
        done.get(20, TimeUnit.SECONDS);
        assertThat(stored()).isEqualTo(10);
        assertThat(rowsInTable()).isEqualTo(10);
        assertThat(queue.pendingRows()).isZero();
    }

    @Test
    void aBatchIsHandedOnByTheCommitThatHoldsIt() throws Exception {
        startWriter(1_000_000, HOUR_MILLIS);
        CompletableFuture<Long> rowsAtHandOff = new CompletableFuture<>();
        assertThat(queue.offer(new WriteTask.Spans(SOURCE, batch(6), () -> {
            try {
                rowsAtHandOff.complete(rowsInTable());
            } catch (Exception e) {
                rowsAtHandOff.completeExceptionally(e);
            }
        }))).isTrue();
        Thread.sleep(300);
        assertThat(rowsAtHandOff).as("the cycle is open: not committed, not handed on").isNotDone();
        queue.put(new WriteTask.Flush(new CompletableFuture<>()));
        assertThat(rowsAtHandOff.get(20, TimeUnit.SECONDS)).as("committed before it is handed on").isEqualTo(6);
    }

    @Test
    void theStopCommitsTheOpenCycle() throws Exception {
        startWriter(1_000_000, HOUR_MILLIS);
        for (int i = 0; i < 20; i++) {
            offer(1 + i % 7);
        }
        Thread.sleep(300);
        assertThat(stored()).isZero(); // an hour to go: the batches wait in the open cycle or the queue
        queue.put(new WriteTask.Stop());
        writerThread.join(20_000);
        assertThat(writerThread.isAlive()).isFalse();
        assertThat(stored()).isEqualTo(77);
        assertThat(rowsInTable()).isEqualTo(77);
    }

    @Test
    void nothingAcceptedIsLostWhenTheStorageCloses() throws Exception {
        Path data = dir.resolve("data");
        try (DuckDbStorage storage = DuckDbStorage.open(data, 100_000, meters)) {
            for (int i = 0; i < 50; i++) {
                assertThat(storage.offerSpans(SOURCE, batch(1 + i % 20))).isTrue();
            }
        } // closes without a flush, inside the writer's time bound
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + data.resolve(DuckDbStorage.DB_FILE));
             Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM spans")) {
            rs.next();
            assertThat(rs.getLong(1)).isEqualTo(nextSpanId - 1);
        }
    }

    @Test
    void smallFramesFromSeveralConcurrentAgentsAreAllStored() throws Exception {
        int agents = 6;
        int frames = 150;
        Path data = dir.resolve("collector");
        Map<String, Long> expected = new HashMap<>();
        // no retention: the test spans are from 2023, older than any retention window
        try (Collector collector = Collector.start(TestConfigs.ephemeral().dataDir(data).build())) {
            ExecutorService pool = Executors.newFixedThreadPool(agents);
            CountDownLatch go = new CountDownLatch(1);
            List<Future<?>> done = new ArrayList<>();
            long total = 0;
            for (int a = 0; a < agents; a++) {
                int agent = a;
                List<SpanBatch> batches = new ArrayList<>();
                long spans = 0;
                for (int f = 0; f < frames; f++) {
                    SpanBatch b = batch(1 + (f * 7 + agent) % 20);
                    spans += b.getSpansCount();
                    batches.add(b);
                }
                expected.put("inst-" + agent, spans);
                total += spans;
                done.add(pool.submit(() -> {
                    try (TestAgent t = new TestAgent(collector.ingestPort())) {
                        t.hello("svc", "inst-" + agent);
                        go.await();
                        for (SpanBatch b : batches) {
                            t.spans(b);
                            if (b.getSpansCount() % 5 == 0) {
                                Thread.sleep(1); // a trickle, not one burst
                            }
                        }
                    }
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
            pool.shutdown();
            Api api = new Api(collector);
            api.awaitMetric("argus_collector_spans_stored_total", total);
            assertThat(api.metric("argus_collector_storage_rows_dropped_total")).isZero();
            // far fewer commits than frames
            assertThat(api.metric("argus_collector_storage_write_seconds_count")).isLessThan(agents * frames / 4.0);
        }
        Map<String, Long> stored = new HashMap<>();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + data.resolve(DuckDbStorage.DB_FILE));
             Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT instance, count(*) FROM spans GROUP BY instance")) {
            while (rs.next()) {
                stored.put(rs.getString(1), rs.getLong(2));
            }
        }
        assertThat(stored).isEqualTo(expected);
    }
}
