package io.argus.collector.storage.duckdb;

import io.argus.collector.storage.CallKinds;
import io.argus.collector.storage.Source;
import io.argus.protocol.CallMetric;
import io.argus.protocol.Gauge;
import io.argus.protocol.MetricBatch;
import io.argus.protocol.Span;
import io.argus.protocol.SpanBatch;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

/**
 * The single writer thread. Drains the {@link WriteQueue} in cycles; each cycle is one transaction that groups
 * many frames: it starts with the first batch taken from the queue and ends when it holds
 * {@value #MAX_ROWS_PER_CYCLE} rows, when {@value #MAX_CYCLE_MILLIS} ms have passed since it started, or at a
 * flush (or stop) request, whichever comes first. Agents send many small frames; committing each on its own
 * (an INSERT ... SELECT, a staging-table swap and a commit per frame) cost some 50-90 us of CPU per span.
 *
 * <ol>
 *   <li>{@code BEGIN TRANSACTION} before the cycle's first row: outside a transaction each appender flush (every
 *       2048 rows, and at the end) commits on its own, with a write-ahead log record each;</li>
 *   <li>every batch of the cycle is appended with DuckDB's Appender straight into its table ({@code spans},
 *       {@code http_metrics}, {@code jvm_gauges}); the rows stay in the transaction's local storage, and DuckDB
 *       writes whole row groups of a large cycle to the file as they fill;</li>
 *   <li>{@code COMMIT}. Data becomes visible to queries at most one cycle ({@value #MAX_CYCLE_MILLIS} ms, or the
 *       time to write {@value #MAX_ROWS_PER_CYCLE} rows under load) after it was accepted.</li>
 * </ol>
 *
 * <p>Spans used to go through an in-memory staging table, moved into {@code spans} by an {@code INSERT ... SELECT}
 * at the end of each cycle; that was twice as fast as appending to {@code spans} while every appender flush was
 * its own commit, but inside the cycle's transaction the direct append costs the same in bulk and saves the
 * statements of the move (parsing, planning, the staging table's drop and re-creation: ~1.5 µs of CPU per span at
 * 8k spans/s). A variant that moved each stage on a second thread (through an attached in-memory database) while
 * this one filled the next measured 15-25 % slower and used more CPU per span on the shared two-core machine, so the
 * path stays on one thread. While a cycle waits for more, the batches wait in the bounded queue; the writer is woken
 * once half its capacity is taken, so a sleeping cycle never makes ingest push back (see
 * {@link WriteQueue#awaitRows}).
 *
 * <p>A failed cycle is rolled back and kept: {@link StorageHealth} says storage is failing (ingest then refuses
 * agents and answers OTLP with 503), and the writer writes the same batches again on a fresh connection, backing off
 * from {@value #MIN_RETRY_MILLIS} ms to {@value #MAX_RETRY_MILLIS} ms, until a commit succeeds; only then does it
 * take new batches, and only then do the kept ones count as stored (and their frames as acknowledged). A full disk
 * therefore costs no acknowledged data. A cycle that fails {@value #DATA_FAILURE_ATTEMPTS} times for a reason that is
 * not the environment's ({@link WriteFailure}) is dropped and counted instead, as it always was, so that batches that
 * cannot be written never hold up the store for good.
 */
final class DuckDbWriter implements Runnable {
    private static final Logger LOG = Logger.getLogger(DuckDbWriter.class.getName());
    static final int MAX_ROWS_PER_CYCLE = 250_000;
    /** Longest a cycle waits for more batches before it commits: data is visible to queries after at most this. */
    static final long MAX_CYCLE_MILLIS = 500;
    private static final long ERROR_LOG_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(10);
    static final long MIN_RETRY_MILLIS = 250;
    static final long MAX_RETRY_MILLIS = 5_000;
    /** Attempts after which a cycle failing for a reason other than the environment is dropped. */
    static final int DATA_FAILURE_ATTEMPTS = 3;

    /** Opens a writer connection: at start and after a failed cycle, whose connection is closed. */
    interface Connections {
        DuckDBConnection open() throws SQLException;
    }

    private final Connections connections;
    private final Path dataDir;
    private final StorageHealth health;
    private DuckDBConnection conn;
    private final WriteQueue queue;
    private final int maxRowsPerCycle;
    private final long maxCycleNanos;
    private final TagJson tagJson = new TagJson();

    private final Counter spansStored;
    private final Counter callRowsStored;
    private final Counter gaugeRowsStored;
    private final Counter rowsDropped;
    private final Counter writeErrors;
    private final Timer writeTimer;

    private DuckDBAppender spans;
    private DuckDBAppender calls;
    private DuckDBAppender jvm;
    private AgentUpserts agentUpserts;
    private int cycleSpans;
    /** A cycle's transaction is open: begun explicitly, since an appender's flush outside one commits on its own. */
    private boolean inTransaction;
    private int cycleRows;
    /** The data tasks of the cycle being written, or of the failed cycle written again; writer thread only. */
    private final List<WriteTask> cycle = new ArrayList<>();
    /** Rows of {@link #cycle} held in the queue's count while they wait to be written again. */
    private long heldRows;
    private long lastErrorLogNanos;
    private int errorsSinceLog;
    private volatile boolean stopRequested;
    private volatile Thread thread;
    private volatile boolean finished;

    DuckDbWriter(Connections connections, Path dataDir, WriteQueue queue, StorageHealth health,
                 MeterRegistry registry) {
        this(connections, dataDir, queue, health, registry, MAX_ROWS_PER_CYCLE, MAX_CYCLE_MILLIS);
    }

    /** With other cycle bounds: a cycle commits after {@code maxRowsPerCycle} rows or {@code maxCycleMillis}. */
    DuckDbWriter(Connections connections, Path dataDir, WriteQueue queue, StorageHealth health,
                 MeterRegistry registry, int maxRowsPerCycle, long maxCycleMillis) {
        this.connections = connections;
        this.dataDir = dataDir;
        this.health = health;
        this.queue = queue;
        this.maxRowsPerCycle = maxRowsPerCycle;
        this.maxCycleNanos = TimeUnit.MILLISECONDS.toNanos(maxCycleMillis);
        this.spansStored = Counter.builder("argus.collector.spans.stored")
                .description("Spans written to storage").register(registry);
        // The meter keeps its published name; dashboards and the perf harness read it.
        this.callRowsStored = Counter.builder("argus.collector.http.metrics.stored")
                .description("Call metric cells (HTTP and database) written to storage").register(registry);
        this.gaugeRowsStored = Counter.builder("argus.collector.jvm.gauges.stored")
                .description("JVM gauge samples written to storage").register(registry);
        this.rowsDropped = Counter.builder("argus.collector.storage.rows.dropped")
                .description("Rows lost because a storage write failed").register(registry);
        this.writeErrors = Counter.builder("argus.collector.storage.errors")
                .description("Failed storage writes").register(registry);
        this.writeTimer = Timer.builder("argus.collector.storage.write")
                .description("Time to append and commit one write cycle (a group of batches)")
                .publishPercentiles(0.5, 0.99)
                .register(registry);
    }

    boolean finished() {
        return finished;
    }

    /** Makes the writer stop even while it waits to write a failed cycle again (the queue's stop task waits behind). */
    void requestStop() {
        stopRequested = true;
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    @Override
    public void run() {
        thread = Thread.currentThread();
        List<CompletableFuture<Void>> barriers = new ArrayList<>();
        boolean stop = false;
        try {
            try {
                conn = connections.open();
                openAppenders();
            } catch (SQLException | RuntimeException e) {
                cycleFailed(e);
            }
            while (!stop) {
                if (health.failing()) {
                    stop = writeAgain();
                    if (!health.failing()) {
                        completeAll(barriers);
                    }
                    continue;
                }
                WriteTask task = queue.poll(250, TimeUnit.MILLISECONDS);
                if (task == null) {
                    continue;
                }
                long start = System.nanoTime();
                long deadline = start + maxCycleNanos;
                int rows = 0;
                boolean ok = true;
                // one cycle: keep appending until the size bound, the time bound, a flush, the stop or a failure
                while (task != null) {
                    if (task instanceof WriteTask.Stop) {
                        stop = true;
                        break;
                    }
                    if (task instanceof WriteTask.Flush flush) {
                        queue.done(task);
                        barriers.add(flush.done());
                        break; // commit now: the caller waits for it
                    }
                    cycle.add(task);
                    queue.done(task);
                    try {
                        rows += write(task);
                    } catch (SQLException | RuntimeException e) {
                        ok = false;
                        cycleFailed(e);
                        break;
                    }
                    if (rows >= maxRowsPerCycle) {
                        break;
                    }
                    task = queue.poll();
                    while (task == null && System.nanoTime() - deadline < 0) {
                        // sleep through the trickle of small batches: woken when the size bound is reached, by
                        // a control task, or at the deadline
                        queue.awaitRows(maxRowsPerCycle - rows, deadline);
                        task = queue.poll();
                    }
                }
                if (ok && commit()) {
                    if (rows > 0) {
                        writeTimer.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
                    }
                    handOn();
                    completeAll(barriers);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.log(Level.SEVERE, "storage writer failed; spans are no longer stored", e);
        } finally {
            if (!health.failing() && conn != null) {
                if (commit()) {
                    handOn();
                }
            }
            if (!cycle.isEmpty()) {
                LOG.warning("storage stopped while failing (" + health.failure() + "): " + heldRows
                        + " row(s) accepted but not stored; agents send unacknowledged frames again");
                queue.release(heldRows);
            }
            closeAppenders();
            if (!health.failing()) {
                checkpoint();
            }
            closeConnection();
            finished = true;
            completeAll(barriers);
        }
    }

    private static void completeAll(List<CompletableFuture<Void>> barriers) {
        for (CompletableFuture<Void> barrier : barriers) {
            barrier.complete(null);
        }
        barriers.clear();
    }

    /**
     * After a failed cycle: waits out the back-off, then writes the same batches in a new transaction on a new
     * connection. Returns once they are committed (or dropped, see {@link #DATA_FAILURE_ATTEMPTS}), or with
     * {@code true} when the collector stops meanwhile.
     */
    private boolean writeAgain() {
        long backoff = MIN_RETRY_MILLIS;
        int dataFailures = 0;
        while (health.failing()) {
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(backoff);
            while (!stopRequested && System.nanoTime() - until < 0) {
                LockSupport.parkNanos(this, until - System.nanoTime());
            }
            if (stopRequested) {
                return true;
            }
            health.retried();
            Exception failure;
            try {
                closeAppenders();
                closeConnection();
                conn = connections.open();
                openAppenders();
                for (WriteTask task : cycle) {
                    write(task);
                }
                failure = commitOrFailure();
            } catch (SQLException | RuntimeException e) {
                failure = e;
            }
            if (failure == null) {
                LOG.info("storage recovered: the " + heldRows + " row(s) of the failed write cycle are stored;"
                        + " accepting agents and OTLP requests again");
                queue.release(heldRows);
                heldRows = 0;
                health.recovered();
                handOn();
                return false;
            }
            rollback();
            String reason = WriteFailure.describe(failure);
            if (!WriteFailure.environmental(failure, dataDir) && ++dataFailures >= DATA_FAILURE_ATTEMPTS) {
                dropCycle(reason);
                return false;
            }
            health.failed(reason);
            report("storage write failed again (" + reason + "); retrying in " + Math.min(MAX_RETRY_MILLIS,
                    backoff * 2) + " ms");
            backoff = Math.min(MAX_RETRY_MILLIS, backoff * 2);
        }
        return false;
    }

    /** Gives up on the failed cycle: its rows are counted as dropped and its frames acknowledged (sending them again
     *  would fail the same way). */
    private void dropCycle(String reason) {
        long rows = 0;
        for (WriteTask t : cycle) {
            rows += t.rows();
        }
        rowsDropped.increment(rows);
        LOG.warning("storage write failed " + DATA_FAILURE_ATTEMPTS + " times for a reason that is not the disk's ("
                + reason + "): the " + rows + " row(s) of that write cycle are dropped");
        queue.release(heldRows);
        heldRows = 0;
        health.recovered();
        handOn();
        try {
            closeAppenders();
            closeConnection();
            conn = connections.open();
            openAppenders();
        } catch (SQLException | RuntimeException e) {
            cycleFailed(e);
        }
    }

    /**
     * After a cycle's commit (or its drop): tells whoever waits (the ingest connection acknowledging the frame) that
     * its batches are stored, or that their loss is counted.
     */
    private void handOn() {
        for (WriteTask task : cycle) {
            if (task instanceof WriteTask.Data data) {
                try {
                    data.handedOn().run();
                } catch (RuntimeException e) {
                    LOG.log(Level.FINE, "hand-off callback failed", e);
                }
            }
        }
        cycle.clear();
    }

    /** Appends one task to the current cycle; returns its rows. */
    private int write(WriteTask task) throws SQLException {
        begin();
        cycleRows += task.rows();
        if (task instanceof WriteTask.Spans s) {
            int n = writeSpans(s.source(), s.batch());
            cycleSpans += n;
            return n;
        } else if (task instanceof WriteTask.Metrics m) {
            return writeMetrics(m.source(), m.batch());
        } else if (task instanceof WriteTask.Agents a) {
            agentUpserts.write(a.agents());
            return 0;
        }
        return 0;
    }

    private int writeSpans(Source source, SpanBatch batch) throws SQLException {
        DuckDBAppender a = spans;
        byte[] service = source.serviceUtf8();
        byte[] instance = source.instanceUtf8();
        List<Span> list = batch.getSpansList();
        for (int i = 0, n = list.size(); i < n; i++) {
            Span s = list.get(i);
            a.beginRow();
            a.append(s.getTraceIdHigh());
            a.append(s.getTraceIdLow());
            a.append(s.getSpanId());
            long parent = s.getParentSpanId();
            if (parent == 0) {
                a.appendNull();
            } else {
                a.append(parent);
            }
            a.append(service);
            a.append(instance);
            a.append(label(DuckDbSchema.SPAN_KINDS, s.getKindValue()));
            a.append(s.getName());
            a.append(s.getStartEpochNanos());
            a.append(s.getDurationNanos());
            a.append(label(DuckDbSchema.SPAN_STATUSES, s.getStatusValue()));
            if (s.getTagsCount() == 0) {
                a.appendNull();
            } else {
                a.append(tagJson.encode(s.getTagsList()));
            }
            a.endRow();
        }
        return list.size();
    }

    private int writeMetrics(Source source, MetricBatch batch) throws SQLException {
        byte[] service = source.serviceUtf8();
        byte[] instance = source.instanceUtf8();
        long ts = batch.getTimestampMs();
        if (batch.getCallsCount() > 0) {
            long[] bounds = toArray(batch.getBucketBoundsNanosList());
            DuckDBAppender a = calls;
            for (CallMetric m : batch.getCallsList()) {
                a.beginRow();
                a.append(service);
                a.append(instance);
                a.append(ts);
                a.append(batch.getIntervalMs());
                a.append(CallKinds.label(m.getKindValue()));
                a.append(m.getMethod());
                a.append(m.getTarget());
                a.append(m.getStatus());
                a.append(m.getCount());
                a.append(m.getErrors());
                a.append(m.getSumNanos());
                a.append(m.getMinNanos());
                a.append(m.getMaxNanos());
                a.append(toArray(m.getBucketCountsList()));
                a.append(bounds);
                a.endRow();
            }
            callRowsStored.increment(batch.getCallsCount());
        }
        if (batch.getJvmCount() > 0) {
            DuckDBAppender a = jvm;
            int written = 0;
            for (Gauge g : batch.getJvmList()) {
                if (!Double.isFinite(g.getValue())) {
                    continue; // an agent may report NaN for a gauge its JVM cannot measure; JSON has no NaN
                }
                written++;
                a.beginRow();
                a.append(service);
                a.append(instance);
                a.append(ts);
                a.append(g.getName());
                a.append(g.getValue());
                a.endRow();
            }
            gaugeRowsStored.increment(written);
        }
        return batch.getCallsCount() + batch.getJvmCount();
    }

    private static String label(String[] labels, int value) {
        return value >= 0 && value < labels.length && labels[value] != null ? labels[value] : labels[0];
    }

    private static long[] toArray(List<Long> list) {
        long[] out = new long[list.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = list.get(i);
        }
        return out;
    }

    /** Ends the cycle: flushes the appenders and commits everything appended; false if that failed. */
    private boolean commit() {
        Exception failure = commitOrFailure();
        if (failure != null) {
            cycleFailed(failure);
            return false;
        }
        return true;
    }

    private Exception commitOrFailure() {
        if (spans == null) {
            return cycle.isEmpty() ? null : new SQLException("no open appenders");
        }
        try {
            spans.flush();
            calls.flush();
            jvm.flush();
            if (inTransaction) {
                execute("COMMIT");
                inTransaction = false;
            }
            spansStored.increment(cycleSpans);
            cycleSpans = 0;
            cycleRows = 0;
            return null;
        } catch (SQLException | RuntimeException e) {
            return e;
        }
    }

    /**
     * A write or commit of the current cycle failed: rolls it back and keeps its batches to be written again; storage
     * is failing until that succeeds. The log line is rate-limited.
     */
    private void cycleFailed(Exception e) {
        writeErrors.increment();
        String reason = WriteFailure.describe(e);
        health.failed(reason);
        rollback();
        long rows = 0;
        for (WriteTask t : cycle) {
            rows += t.rows();
        }
        queue.hold(rows - heldRows);
        heldRows = rows;
        report("storage write failed (" + reason + "); the " + rows + " row(s) of that write cycle are kept and"
                + " written again; until then agents are refused and OTLP requests answered 503");
    }

    private void report(String line) {
        errorsSinceLog++;
        long now = System.nanoTime();
        if (lastErrorLogNanos == 0 || now - lastErrorLogNanos > ERROR_LOG_INTERVAL_NANOS) {
            LOG.log(Level.WARNING, line + (errorsSinceLog > 1 ? " (" + errorsSinceLog + " failures since the last"
                    + " report)" : ""));
            lastErrorLogNanos = now;
            errorsSinceLog = 0;
        }
    }

    private void rollback() {
        closeAppenders();
        if (conn != null) {
            try {
                if (inTransaction) {
                    inTransaction = false;
                    execute("ROLLBACK");
                }
            } catch (SQLException rollback) {
                LOG.log(Level.FINE, "rollback", rollback);
            }
        }
        cycleSpans = 0;
        cycleRows = 0;
    }

    /** Opens the cycle's transaction before its first row, so that every row of the cycle commits together. */
    private void begin() throws SQLException {
        if (!inTransaction) {
            execute("BEGIN TRANSACTION");
            inTransaction = true;
        }
    }

    private void execute(String sql) throws SQLException {
        try (Statement st = conn.createStatement()) {
            st.execute(sql);
        }
    }

    private void closeConnection() {
        if (conn != null) {
            try {
                conn.close();
            } catch (SQLException e) {
                LOG.log(Level.FINE, "closing writer connection", e);
            }
            conn = null;
        }
    }

    private void openAppenders() throws SQLException {
        inTransaction = false;
        agentUpserts = new AgentUpserts(conn);
        spans = conn.createAppender("spans");
        calls = conn.createAppender("http_metrics");
        jvm = conn.createAppender("jvm_gauges");
    }

    private void closeAppenders() {
        for (DuckDBAppender a : new DuckDBAppender[] {spans, calls, jvm}) {
            if (a != null) {
                try {
                    a.close();
                } catch (SQLException | RuntimeException e) {
                    LOG.log(Level.FINE, "closing appender", e);
                }
            }
        }
        spans = null;
        calls = null;
        jvm = null;
        if (agentUpserts != null) {
            agentUpserts.close();
            agentUpserts = null;
        }
    }

    private void checkpoint() {
        try (Statement st = conn.createStatement()) {
            st.execute("CHECKPOINT");
        } catch (SQLException | RuntimeException e) {
            LOG.log(Level.WARNING, "final checkpoint failed (the write-ahead log still holds the data): " + e);
        }
    }
}
