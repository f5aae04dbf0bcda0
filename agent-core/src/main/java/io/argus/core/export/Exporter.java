package io.argus.core.export;

import io.argus.core.AgentCounters;
import io.argus.core.AgentLog;
import io.argus.core.config.AgentSettings;
import io.argus.core.plugin.GaugeSource;
import io.argus.core.metrics.CallMetricsTable;
import io.argus.core.metrics.CallStats;
import io.argus.core.trace.RecordedSpan;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;
import javax.net.ssl.SSLContext;

/**
 * The single exporter thread: sends the span queue in batches, and once per metrics interval the HTTP
 * metric cells, the gauges and a heartbeat. Application threads never wait for it.
 *
 * <p>A batch goes out when {@code argus.exporter.batchSize} spans are queued (the application thread whose
 * span fills it unparks this one), and whatever is queued goes out every {@code argus.exporter.maxDelay}. In
 * between the thread sleeps: no polling while idle. The sleep is shortened only while the connection has work
 * of its own (a connect in progress, bytes the socket has not taken, the next reconnection attempt).
 */
public final class Exporter implements Runnable {

    /** Longest sleep while written bytes wait for room in the socket. */
    private static final long WRITING_PARK_NANOS = 10_000_000L;
    /** Longest sleep while written span frames wait for their acknowledgement. */
    private static final long ACK_PARK_NANOS = 50_000_000L;
    /** Longest sleep while a connect is in progress. */
    private static final long CONNECTING_PARK_NANOS = 50_000_000L;
    /** Longest sleep otherwise: a collector that closed the connection is noticed within this while idle. */
    private static final long IDLE_PARK_NANOS = 1_000_000_000L;

    private final AgentSettings settings;
    private final SpanQueue queue;
    private final CallMetricsTable serverMetrics;
    private final CallMetricsTable clientMetrics;
    private final CallMetricsTable dbMetrics;
    /** Call metrics of further kinds (scheduled jobs), each under its wire kind. */
    private final AgentCounters counters;
    private final List<GaugeSource> gauges = new CopyOnWriteArrayList<GaugeSource>();
    /** Call-metric tables of the kinds past the three above. */
    private final List<KindTable> moreTables = new CopyOnWriteArrayList<KindTable>();
    /** Created and driven on the exporter thread: connects and host look-ups stay off application threads. */
    private volatile CollectorConnection connection;
    /** The collector connection could not be set up (e.g. unusable TLS trust material): spans are dropped. */
    private volatile boolean exportOff;
    private final String agentVersion;
    private volatile String startupMode = "";
    private volatile long observingSinceMillis;
    private final SpanEncoder encoder = new SpanEncoder();
    private final List<RecordedSpan> batch;
    /** Queued spans that make the exporter send before the delay: a batch, or half the queue if that is less. */
    private final int sendThreshold;
    private final Thread thread;
    private volatile boolean running = true;
    private long lastMetricsMillis;
    /** Loop iterations so far (wake-ups), written by the exporter thread only; tests read it. */
    private volatile long iterations;

    public Exporter(AgentSettings settings, SpanQueue queue, CallMetricsTable serverMetrics,
                    CallMetricsTable clientMetrics, AgentCounters counters, String agentVersion) {
        this(settings, queue, serverMetrics, clientMetrics, new CallMetricsTable(1), counters, agentVersion);
    }

    public Exporter(AgentSettings settings, SpanQueue queue, CallMetricsTable serverMetrics,
                    CallMetricsTable clientMetrics, CallMetricsTable dbMetrics, AgentCounters counters,
                    String agentVersion) {
        this.settings = settings;
        this.queue = queue;
        this.serverMetrics = serverMetrics;
        this.clientMetrics = clientMetrics;
        this.dbMetrics = dbMetrics;
        this.counters = counters;
        this.batch = new ArrayList<RecordedSpan>(settings.batchSize);
        // a queue smaller than a batch would fill up (and drop) while waiting for the delay
        this.sendThreshold = Math.max(1, Math.min(settings.batchSize, settings.queueSize / 2));
        this.agentVersion = agentVersion;
        this.thread = new Thread(this, "argus-exporter");
        this.thread.setDaemon(true);
    }

    /** How the agent started, and since when its probes are in (epoch millis): told to the collector in the handshake. */
    public void startedObserving(String startupMode, long sinceMillis) {
        this.startupMode = startupMode;
        this.observingSinceMillis = sinceMillis;
    }

    /** Sends {@code table}'s cells under {@code wireKind} (a {@code CallMetricKind} number) every interval. */
    public void addCallMetrics(int wireKind, CallMetricsTable table) {
        moreTables.add(new KindTable(wireKind, table));
    }

    /** The wire kind of the scheduled jobs' metrics ({@code CALL_METRIC_KIND_JOB}). */
    public static final int JOB_METRICS_KIND = WireFields.CALL_KIND_JOB;

    /** Messages produced (acknowledged) and processed, sent as call-metric kinds 4 and 5. */
    public void addMessagingMetrics(CallMetricsTable produced, CallMetricsTable consumed) {
        addCallMetrics(WireFields.CALL_KIND_MESSAGING_PRODUCE, produced);
        addCallMetrics(WireFields.CALL_KIND_MESSAGING_CONSUME, consumed);
    }

    /** RPC calls served and made, sent as call-metric kinds 6 and 7. */
    public void addRpcMetrics(CallMetricsTable server, CallMetricsTable client) {
        addCallMetrics(WireFields.CALL_KIND_RPC_SERVER, server);
        addCallMetrics(WireFields.CALL_KIND_RPC_CLIENT, client);
    }

    /** A call-metric table and the wire number of its kind. */
    private static final class KindTable {
        final int kind;
        final CallMetricsTable table;

        KindTable(int kind, CallMetricsTable table) {
            this.kind = kind;
            this.table = table;
        }
    }

    public void addGaugeSource(GaugeSource source) {
        gauges.add(source);
    }

    public void start() {
        lastMetricsMillis = System.currentTimeMillis();
        thread.start();
    }

    private void connect() {
        if (settings.exporterMode != AgentSettings.ExporterMode.COLLECTOR) {
            return;
        }
        try {
            SSLContext tls = null;
            if (settings.collectorTls.enabled) {
                try {
                    tls = TlsClientContext.create(settings.collectorTls);
                } catch (TlsClientContext.TlsSetupException e) {
                    exportOff = true;
                    AgentLog.error(e.getMessage() + "; export to the collector is off: spans and metrics are dropped"
                            + " and counted");
                    return;
                }
            }
            CollectorConnection created = new CollectorConnection(ConnectionSettings.to(settings.collectorAddresses,
                            ControlFrames.handshake(settings, agentVersion, System.currentTimeMillis(), startupMode,
                                    observingSinceMillis))
                    .acknowledged(counters, settings.maxUnackedBytes, CollectorConnection.REPLY_TIMEOUT_MILLIS)
                    .maxPendingBytes(settings.maxPendingBytes)
                    .maxBackoffMillis(settings.maxBackoffMillis)
                    .tls(tls, settings.collectorTls.verifyHostname)
                    .build());
            created.start();
            connection = created;
        } catch (Throwable t) {
            exportOff = true;
            AgentLog.error("cannot set up the collector connection; spans and metrics will be dropped", t);
        }
    }

    @Override
    public void run() {
        connect();
        long maxDelayNanos = settings.maxDelayMillis * 1_000_000L;
        long nextFlush = System.nanoTime() + maxDelayNanos;
        while (running) {
            iterations++;
            try {
                CollectorConnection connection = this.connection;
                if (connection != null) {
                    connection.poll(); // connect, reconnect, write what is pending, read acknowledgements
                }
                long now = System.nanoTime();
                boolean canSend = canSend(connection);
                if (settings.blockWhenFull) {
                    // waiting application threads give up only while the collector is down
                    queue.draining(settings.exporterMode != AgentSettings.ExporterMode.COLLECTOR
                            || connection != null && connection.upOrConnecting());
                }
                if (canSend) {
                    if (now - nextFlush >= 0) {
                        while (exportSpans() > 0) {
                            // everything queued: the oldest has waited maxDelay
                        }
                        nextFlush = now + maxDelayNanos;
                    } else {
                        while (queue.size() >= sendThreshold && exportSpans() > 0) {
                            // full batches only; the rest waits for more or for the delay
                        }
                    }
                }
                long nowMillis = System.currentTimeMillis();
                if (nowMillis - lastMetricsMillis >= settings.metricsIntervalMillis) {
                    exportMetrics(nowMillis);
                    nowMillis = System.currentTimeMillis();
                }
                long sleep = Math.min(IDLE_PARK_NANOS,
                        (lastMetricsMillis + settings.metricsIntervalMillis - nowMillis) * 1_000_000L);
                if (connection != null) {
                    sleep = Math.min(sleep, connectionPollNanos(connection));
                }
                if (canSend) {
                    sleep = Math.min(sleep, nextFlush - System.nanoTime());
                    if (sleep > 0 && holdingBack(connection)) {
                        // blockWhenFull: the queue stays full while the socket catches up; no batch wake-ups
                        LockSupport.parkNanos(this, sleep);
                    } else if (sleep > 0) {
                        queue.awaitSpans(sendThreshold, sleep);
                    }
                } else if (sleep > 0) {
                    // spans stay queued until the collector is reachable: no batch wake-ups meanwhile
                    LockSupport.parkNanos(this, sleep);
                }
            } catch (Throwable t) {
                AgentLog.error("exporter iteration failed", t);
                LockSupport.parkNanos(maxDelayNanos);
            }
        }
    }

    long iterations() {
        return iterations;
    }

    private boolean canSend(CollectorConnection connection) {
        return settings.exporterMode != AgentSettings.ExporterMode.COLLECTOR || exportOff
                || connection != null && connection.isConnected();
    }

    /**
     * With {@code argus.exporter.blockWhenFull} (benchmarks only) spans are never dropped for a busy socket: they
     * stay queued while the connection's pending bytes are at their limit, and application threads wait.
     */
    private boolean holdingBack(CollectorConnection connection) {
        return settings.blockWhenFull && connection != null && !connection.hasRoom();
    }

    /** How soon the connection needs the next {@link CollectorConnection#poll}. */
    private static long connectionPollNanos(CollectorConnection connection) {
        switch (connection.pollState()) {
            case WRITING:
                return WRITING_PARK_NANOS;
            case AWAITING_ACKS:
                return ACK_PARK_NANOS;
            case CONNECTING:
                return CONNECTING_PARK_NANOS;
            case HANDSHAKING:
                return WRITING_PARK_NANOS;
            case WAITING_TO_RECONNECT:
                return Math.max(1_000_000L, connection.millisToNextAttempt() * 1_000_000L);
            default:
                return IDLE_PARK_NANOS;
        }
    }

    private int exportSpans() {
        CollectorConnection connection = this.connection;
        if (exportOff) {
            // nothing will ever take them: drop (and count) at once instead of holding a full queue
            batch.clear();
            int n = queue.drainTo(batch, settings.batchSize);
            counters.droppedSpans.addAndGet(n);
            batch.clear();
            return n;
        }
        if (settings.exporterMode == AgentSettings.ExporterMode.COLLECTOR
                && (connection == null || !connection.isConnected())) {
            // keep spans queued (the queue is bounded and drops new ones when full) until the
            // collector is reachable: right after start-up, and during an outage
            return 0;
        }
        if (holdingBack(connection)) {
            // blockWhenFull: a batch the connection cannot take now stays queued instead of being dropped
            return 0;
        }
        batch.clear();
        int n = queue.drainTo(batch, settings.batchSize);
        if (n == 0) {
            return 0;
        }
        if (settings.exporterMode == AgentSettings.ExporterMode.DISCARD) {
            counters.sentSpans.addAndGet(n);
            return n;
        }
        try {
            // taken: the connection counts the spans as sent once the collector acknowledges them
            if (connection == null || !connection.sendSpans(encoder.encode(batch), n)) {
                counters.droppedSpans.addAndGet(n);
            }
        } catch (Exception e) {
            counters.droppedSpans.addAndGet(n);
            AgentLog.warn("cannot encode a span batch", e);
        }
        batch.clear();
        return n;
    }

    private void exportMetrics(long now) {
        long interval = now - lastMetricsMillis;
        lastMetricsMillis = now;
        List<ControlFrames.KindCells> more = new ArrayList<ControlFrames.KindCells>(moreTables.size());
        for (KindTable t : moreTables) {
            more.add(new ControlFrames.KindCells(t.kind, t.table.takeSnapshots()));
        }
        byte[] metrics = ControlFrames.metrics(now, interval, serverMetrics.takeSnapshots(),
                clientMetrics.takeSnapshots(), dbMetrics.takeSnapshots(), more, new ControlFrames.GaugeWriter() {
                    @Override
                    public void writeGauges(GaugeSource.GaugeSink sink) {
                        sampleGauges(sink);
                    }
                });
        CollectorConnection connection = this.connection;
        if (settings.exporterMode == AgentSettings.ExporterMode.DISCARD) {
            return;
        }
        if (connection == null || !connection.send(metrics)) {
            counters.droppedMetricBatches.incrementAndGet();
        }
        if (connection != null) {
            connection.send(ControlFrames.heartbeat(counters));
        }
    }

    private void sampleGauges(GaugeSource.GaugeSink sink) {
        for (GaugeSource source : gauges) {
            try {
                source.sample(sink);
            } catch (Throwable t) {
                AgentLog.warn("gauge source " + source.getClass().getName() + " failed", t);
            }
        }
        sink.gauge("agent.spans.made", queue.made());
        sink.gauge("agent.spans.sent", counters.sentSpans.get());
        sink.gauge("agent.spans.dropped", counters.droppedSpans.get());
        sink.gauge("agent.spans.resent", counters.resentSpans.get());
        sink.gauge("agent.spans.unacked", counters.unackedSpans.get());
        sink.gauge("agent.metrics.dropped", counters.droppedMetricBatches.get());
        sink.gauge("agent.advice.errors", counters.adviceErrors.get());
        sink.gauge("agent.queue.size", queue.size());
    }

    /** On JVM exit: send what is queued and the last metrics, waiting at most {@code timeoutMillis}. */
    public void shutdown(long timeoutMillis) {
        running = false;
        queue.draining(false);
        LockSupport.unpark(thread);
        try {
            thread.join(timeoutMillis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            // the batch, the encoder and the socket belong to the exporter thread: never share them
            AgentLog.debug("exporter still busy after " + timeoutMillis + " ms at exit; its last data is not flushed");
            reportSpans();
            return;
        }
        try {
            while (exportSpans() > 0) {
                // drain the rest
            }
            exportMetrics(System.currentTimeMillis());
        } catch (Throwable t) {
            AgentLog.debug("final flush failed: " + t);
        }
        CollectorConnection connection = this.connection;
        if (connection != null) {
            connection.close(timeoutMillis);
        }
        // what the collector could not take (it was unreachable): still queued, lost with the JVM
        batch.clear();
        int queued;
        while ((queued = queue.drainTo(batch, Integer.MAX_VALUE)) > 0) {
            counters.lostAtExitQueuedSpans.addAndGet(queued);
            batch.clear();
        }
        reportSpans();
    }

    /**
     * At exit, one line that accounts for every span made since start: acknowledged (or, by a collector without
     * acknowledgements, written) + dropped + lost at exit (still queued, or written but never acknowledged). The
     * collector never sees these last figures, so they go to the log. Nothing made, nothing dropped: no line.
     * Spans made after {@code made} is read are not in it, so the terms add up even while the application runs.
     */
    private void reportSpans() {
        // the application may still be making spans while this hook runs: the outcomes first, what was made last,
        // and whatever the difference holds (still queued, or in a batch the exporter thread did not finish) is
        // lost at exit, so the line adds up whatever the timing
        long metrics = counters.droppedMetricBatches.get();
        long sent = counters.sentSpans.get();
        long dropped = counters.droppedSpans.get();
        long unacked = counters.lostAtExitUnackedSpans.get();
        long made = queue.made();
        if (made == 0 && metrics == 0) {
            return;
        }
        long queued = Math.max(0, made - sent - dropped - unacked);
        AgentLog.info("spans since start: " + made + " made = " + sent + " acknowledged + " + dropped + " dropped + "
                + (queued + unacked) + " lost at exit (" + queued + " still queued, " + unacked
                + " written but never acknowledged); metric batches dropped: " + metrics);
    }

}
