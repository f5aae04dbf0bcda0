package io.argus.core.export;

import io.argus.core.AgentCounters;
import io.argus.core.AgentLog;
import io.argus.core.config.AgentSettings;
import io.argus.core.metrics.GaugeSource;
import io.argus.core.metrics.HttpMetricsTable;
import io.argus.core.trace.RecordedSpan;
import io.argus.protocol.Gauge;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;

/**
 * The single exporter thread: drains the span queue in batches, and once per metrics interval
 * flushes the HTTP metric cells, the gauges and a heartbeat. Application threads never wait for it.
 */
public final class Exporter implements Runnable {

    private final AgentSettings settings;
    private final SpanQueue queue;
    private final HttpMetricsTable serverMetrics;
    private final HttpMetricsTable clientMetrics;
    private final AgentCounters counters;
    private final List<GaugeSource> gauges = new CopyOnWriteArrayList<GaugeSource>();
    private final CollectorConnection connection;
    private final SpanEncoder encoder = new SpanEncoder();
    private final List<RecordedSpan> batch;
    private final Thread thread;
    private volatile boolean running = true;
    private long lastMetricsMillis;

    public Exporter(AgentSettings settings, SpanQueue queue, HttpMetricsTable serverMetrics,
                    HttpMetricsTable clientMetrics, AgentCounters counters, String agentVersion) {
        this.settings = settings;
        this.queue = queue;
        this.serverMetrics = serverMetrics;
        this.clientMetrics = clientMetrics;
        this.counters = counters;
        this.batch = new ArrayList<RecordedSpan>(settings.batchSize);
        this.connection = settings.exporterMode == AgentSettings.ExporterMode.COLLECTOR
                ? new CollectorConnection(settings.collectorHost, settings.collectorPort,
                ControlFrames.handshake(settings, agentVersion, System.currentTimeMillis()),
                settings.maxPendingBytes, settings.maxBackoffMillis)
                : null;
        this.thread = new Thread(this, "argus-exporter");
        this.thread.setDaemon(true);
    }

    public void addGaugeSource(GaugeSource source) {
        gauges.add(source);
    }

    public void start() {
        lastMetricsMillis = System.currentTimeMillis();
        if (connection != null) {
            connection.start();
        }
        thread.start();
    }

    @Override
    public void run() {
        long parkNanos = settings.flushIntervalMillis * 1_000_000L;
        while (running) {
            try {
                int drained = exportSpans();
                long now = System.currentTimeMillis();
                if (now - lastMetricsMillis >= settings.metricsIntervalMillis) {
                    exportMetrics(now);
                }
                if (drained < settings.batchSize) {
                    LockSupport.parkNanos(parkNanos);
                }
            } catch (Throwable t) {
                AgentLog.error("exporter iteration failed", t);
                LockSupport.parkNanos(parkNanos);
            }
        }
    }

    private int exportSpans() {
        batch.clear();
        int n = queue.drainTo(batch, settings.batchSize);
        if (n == 0) {
            return 0;
        }
        if (connection == null) {
            counters.sentSpans.addAndGet(n);
            return n;
        }
        try {
            if (connection.send(encoder.encode(batch))) {
                counters.sentSpans.addAndGet(n);
            } else {
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
        byte[] metrics = ControlFrames.metrics(now, interval, serverMetrics.takeSnapshots(),
                clientMetrics.takeSnapshots(), sampleGauges());
        if (connection == null) {
            return;
        }
        if (!connection.send(metrics)) {
            counters.droppedMetricBatches.incrementAndGet();
        }
        connection.send(ControlFrames.heartbeat(counters));
    }

    private List<Gauge> sampleGauges() {
        final List<Gauge> out = new ArrayList<Gauge>();
        GaugeSource.GaugeSink sink = new GaugeSource.GaugeSink() {
            @Override
            public void gauge(String name, double value) {
                if (!Double.isNaN(value) && !Double.isInfinite(value)) {
                    out.add(Gauge.newBuilder().setName(name).setValue(value).build());
                }
            }
        };
        for (GaugeSource source : gauges) {
            try {
                source.sample(sink);
            } catch (Throwable t) {
                AgentLog.warn("gauge source " + source.getClass().getName() + " failed", t);
            }
        }
        sink.gauge("agent.spans.sent", counters.sentSpans.get());
        sink.gauge("agent.spans.dropped", counters.droppedSpans.get());
        sink.gauge("agent.metrics.dropped", counters.droppedMetricBatches.get());
        sink.gauge("agent.advice.errors", counters.adviceErrors.get());
        sink.gauge("agent.queue.size", queue.size());
        return out;
    }

    /** On JVM exit: send what is queued and the last metrics, waiting at most {@code timeoutMillis}. */
    public void shutdown(long timeoutMillis) {
        running = false;
        LockSupport.unpark(thread);
        try {
            thread.join(timeoutMillis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            while (exportSpans() > 0) {
                // drain the rest
            }
            exportMetrics(System.currentTimeMillis());
        } catch (Throwable t) {
            AgentLog.debug("final flush failed: " + t);
        }
        if (connection != null) {
            connection.close(timeoutMillis);
        }
    }

    public boolean isConnected() {
        return connection != null && connection.isConnected();
    }
}
