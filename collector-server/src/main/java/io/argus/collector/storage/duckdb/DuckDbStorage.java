package io.argus.collector.storage.duckdb;

import io.argus.collector.storage.AgentInfo;
import io.argus.collector.storage.CallMetricSummary;
import io.argus.collector.storage.JvmSeries;
import io.argus.collector.storage.RedQuery;
import io.argus.collector.storage.RedSeries;
import io.argus.collector.storage.ServiceMap;
import io.argus.collector.storage.TimeRange;
import io.argus.collector.storage.TraceSearch;
import io.argus.collector.storage.TraceSearchHit;
import io.argus.collector.storage.JvmMetrics;
import io.argus.collector.storage.Source;
import io.argus.collector.storage.Storage;
import io.argus.collector.storage.TraceDetail;
import io.argus.collector.storage.TraceQuery;
import io.argus.collector.storage.TraceSummary;
import io.argus.protocol.MetricBatch;
import io.argus.protocol.SpanBatch;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.duckdb.DuckDBConnection;

/**
 * Embedded DuckDB storage in one file, {@code <dataDir>/argus.duckdb}.
 *
 * <p>Writes: ingest threads {@linkplain #offerSpans offer} validated batches to a queue bounded in rows;
 * one writer thread ({@link DuckDbWriter}) bulk-appends them with DuckDB's Appender API (see there for the
 * staging table that makes this fast). Reads: each query borrows a connection from a small pool; DuckDB's
 * MVCC lets queries run beside the writer.
 */
public final class DuckDbStorage implements Storage {
    private static final Logger LOG = Logger.getLogger(DuckDbStorage.class.getName());
    public static final String DB_FILE = "argus.duckdb";
    /** Held while a collector uses the directory, so that two collectors never write one store. */
    public static final String LOCK_FILE = "argus.lock";

    private final Path file;
    private final FileLock dirLock;
    private final DuckDBConnection root;
    private final WriteQueue queue;
    private final StorageHealth health;
    private final DuckDbWriter writer;
    private final Thread writerThread;
    private final ConcurrentLinkedDeque<Connection> idleConnections = new ConcurrentLinkedDeque<>();
    private final DuckDbSeries series = new DuckDbSeries(this::query);
    private final DuckDbTraceQueries traceQueries = new DuckDbTraceQueries(this::query);
    private final DuckDbTraces traces = new DuckDbTraces(this::query);
    private final DuckDbCallMetrics callMetrics = new DuckDbCallMetrics(this::query);
    private volatile boolean closed;

    private DuckDbStorage(Path file, FileLock dirLock, DuckDBConnection root, int queueRows, MeterRegistry registry)
            throws SQLException {
        this.file = file;
        this.dirLock = dirLock;
        this.root = root;
        this.queue = new WriteQueue(queueRows);
        this.health = new StorageHealth(registry);
        this.writer = new DuckDbWriter(() -> (DuckDBConnection) root.duplicate(), file.getParent(), queue, health,
                registry);
        this.writerThread = new Thread(writer, "argus-storage-writer");
        this.writerThread.setDaemon(true);
        Gauge.builder("argus.collector.store.queue.depth", queue, WriteQueue::pendingRows)
                .description("Rows accepted but not yet written to storage").register(registry);
        Gauge.builder("argus.collector.store.queue.capacity", queue, WriteQueue::capacityRows)
                .description("Capacity of the storage write queue in rows").register(registry);
    }

    /**
     * Opens (creating when needed) the store in {@code dataDir} and starts its writer thread.
     *
     * @param queueRows capacity of the write queue, in rows
     */
    public static DuckDbStorage open(Path dataDir, int queueRows, MeterRegistry registry) {
        return open(dataDir, queueRows, DuckDbSettings.DEFAULTS, registry);
    }

    /** As {@link #open(Path, int, MeterRegistry)}, with the database engine's settings. */
    public static DuckDbStorage open(Path dataDir, int queueRows, DuckDbSettings settings, MeterRegistry registry) {
        Path file = dataDir.resolve(DB_FILE).toAbsolutePath();
        FileLock lock = lockDirectory(dataDir);
        DuckDBConnection root = null;
        try {
            Class.forName("org.duckdb.DuckDBDriver");
            root = (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:" + file);
            DuckDbSchema.configure(root, dataDir, settings);
            DuckDbSchema.create(root);
            DuckDbStorage storage = new DuckDbStorage(file, lock, root, queueRows, registry);
            storage.writerThread.start();
            return storage;
        } catch (SQLException | ClassNotFoundException | RuntimeException e) {
            if (root != null) {
                try {
                    root.close();
                } catch (SQLException ignored) {
                    // already failing
                }
            }
            release(lock);
            throw new IllegalStateException("cannot open storage " + file + ": " + e.getMessage(), e);
        }
    }

    private static FileLock lockDirectory(Path dataDir) {
        FileChannel channel = null;
        try {
            Files.createDirectories(dataDir);
            channel = FileChannel.open(dataDir.resolve(LOCK_FILE), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE);
            FileLock lock = channel.tryLock();
            if (lock == null) {
                throw new OverlappingFileLockException();
            }
            return lock;
        } catch (OverlappingFileLockException e) {
            closeQuietly(channel);
            throw new IllegalStateException("cannot open storage: data directory " + dataDir
                    + " is in use by another collector");
        } catch (IOException e) {
            closeQuietly(channel);
            throw new UncheckedIOException("cannot open storage: data directory " + dataDir + " is not usable: "
                    + e.getMessage(), e);
        }
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // nothing more to do
            }
        }
    }

    private static void release(FileLock lock) {
        try {
            lock.release();
        } catch (IOException ignored) {
            // closing the channel releases it too
        }
        closeQuietly(lock.channel());
    }

    public Path file() {
        return file;
    }

    // ---------------------------------------------------------------- writes

    /** {@code handedOn} runs after the commit of the write cycle that holds the batch. */
    @Override
    public boolean offerSpans(Source source, SpanBatch batch, Runnable handedOn) {
        return !closed && queue.offer(new WriteTask.Spans(source, batch, handedOn));
    }

    /** {@code handedOn} runs after the commit of the write cycle that holds the batch. */
    @Override
    public boolean offerMetrics(Source source, MetricBatch batch, Runnable handedOn) {
        return !closed && queue.offer(new WriteTask.Metrics(source, batch, handedOn));
    }

    @Override
    public void saveAgents(Collection<AgentInfo> agents) {
        if (!closed && !agents.isEmpty()) {
            queue.put(new WriteTask.Agents(List.copyOf(agents)));
        }
    }

    @Override
    public boolean flush(Duration timeout) {
        if (closed || writer.finished()) {
            return queue.pendingRows() == 0;
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        queue.put(new WriteTask.Flush(done));
        try {
            done.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    @Override
    public long pendingRows() {
        return queue.pendingRows();
    }

    /** False while write cycles fail (a full disk): ingest then refuses agents and answers OTLP with 503. */
    @Override
    public boolean accepting() {
        return !health.failing();
    }

    @Override
    public String unavailableReason() {
        String failure = health.failure();
        return failure == null ? "" : "storage is failing (" + failure + ")";
    }

    @Override
    public long unavailableSinceMs() {
        return health.failingSinceMs();
    }

    // ---------------------------------------------------------------- reads

    @Override
    public List<TraceSummary> traces(TraceQuery q) {
        return traces.recent(q);
    }

    @Override
    public Optional<TraceDetail> trace(long high, long low) {
        return traces.trace(high, low);
    }

    @Override
    public List<TraceSearchHit> searchTraces(TraceSearch search) {
        return traceQueries.search(search);
    }

    @Override
    public ServiceMap serviceMap(TimeRange range) {
        return traceQueries.serviceMap(range);
    }

    @Override
    public RedSeries redSeries(RedQuery query) {
        return series.red(query);
    }

    @Override
    public JvmSeries jvmSeries(String service, TimeRange range, long stepMs) {
        return series.jvm(service, range, stepMs);
    }

    @Override
    public List<CallMetricSummary> callMetrics(String service, String kind, TimeRange range) {
        return callMetrics.summaries(service, kind, range);
    }

    @Override
    public JvmMetrics jvmMetrics(String service, int points) {
        return series.latestJvm(service, points);
    }

    @Override
    public List<AgentInfo> loadAgents() {
        return query("""
                SELECT service, instance, agent_version, host, pid, start_time_ms, runtime_version,
                       protocol_version, remote_address, connected_at_ms, last_seen_ms, last_heartbeat_ms,
                       dropped_spans, dropped_metrics, advice_errors, sent_spans, spans_received,
                       startup_mode, observing_since_ms
                FROM agents ORDER BY service, instance""", ps -> {
        }, rs -> {
            List<AgentInfo> out = new ArrayList<>();
            while (rs.next()) {
                out.add(new AgentInfo(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                        rs.getLong(5), rs.getLong(6), rs.getString(7), rs.getInt(8), rs.getString(9), false,
                        rs.getLong(10), rs.getLong(11), rs.getLong(12), rs.getLong(13), rs.getLong(14),
                        rs.getLong(15), rs.getLong(16), rs.getLong(17), nonNull(rs.getString(18)), rs.getLong(19)));
            }
            return out;
        });
    }

    private static String nonNull(String value) {
        return value == null ? "" : value;
    }

    // ---------------------------------------------------------------- retention

    /**
     * Runs on the caller's thread through a pooled connection, in its own transaction beside the writer's:
     * the writer only appends new rows, so the two never touch the same rows and ingest goes on meanwhile.
     * DuckDB frees the space at its next checkpoint.
     */
    @Override
    public long deleteSpansBefore(long epochNanos) {
        return update("DELETE FROM spans WHERE start_epoch_nanos < ?", ps -> ps.setLong(1, epochNanos));
    }

    @Override
    public long deleteMetricsBefore(long epochMs) {
        return update("DELETE FROM http_metrics WHERE ts_ms < ?", ps -> ps.setLong(1, epochMs))
                + update("DELETE FROM jvm_gauges WHERE ts_ms < ?", ps -> ps.setLong(1, epochMs));
    }

    // ---------------------------------------------------------------- plumbing

    private interface Execution<T> {
        T run(PreparedStatement ps) throws SQLException;
    }

    private <T> T query(String sql, Sql.Binder binder, Sql.Reader<T> reader) {
        return execute(sql, binder, ps -> {
            try (ResultSet rs = ps.executeQuery()) {
                return reader.read(rs);
            }
        });
    }

    private long update(String sql, Sql.Binder binder) {
        return execute(sql, binder, PreparedStatement::executeUpdate);
    }

    private <T> T execute(String sql, Sql.Binder binder, Execution<T> execution) {
        if (closed) {
            throw new IllegalStateException("storage is closed");
        }
        Connection conn = borrow();
        boolean healthy = true;
        try (PreparedStatement ps = conn.prepareStatement(sql)) {
            binder.bind(ps);
            return execution.run(ps);
        } catch (SQLException e) {
            healthy = false;
            throw new IllegalStateException("query failed: " + e.getMessage(), e);
        } finally {
            giveBack(conn, healthy);
        }
    }

    private Connection borrow() {
        Connection conn = idleConnections.pollFirst();
        if (conn != null) {
            return conn;
        }
        try {
            return root.duplicate();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot open a storage connection: " + e.getMessage(), e);
        }
    }

    private void giveBack(Connection conn, boolean healthy) {
        if (healthy && !closed && idleConnections.size() < 8) {
            idleConnections.addFirst(conn);
            if (!closed) {
                return;
            }
            idleConnections.remove(conn);
        }
        closeQuietly(conn);
    }

    private static void closeQuietly(Connection conn) {
        try {
            conn.close();
        } catch (SQLException e) {
            LOG.log(Level.FINE, "closing connection", e);
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        writer.requestStop();
        queue.put(new WriteTask.Stop());
        try {
            writerThread.join(TimeUnit.SECONDS.toMillis(60));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (writerThread.isAlive()) {
            LOG.warning("storage writer did not finish within 60 s; " + queue.pendingRows() + " rows not written");
        }
        Connection c;
        while ((c = idleConnections.pollFirst()) != null) {
            closeQuietly(c);
        }
        try {
            root.close();
        } catch (SQLException e) {
            LOG.log(Level.WARNING, "closing storage: " + e);
        }
        release(dirLock);
    }
}
