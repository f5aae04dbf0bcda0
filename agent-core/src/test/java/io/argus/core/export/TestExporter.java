package io.argus.core.export;

import io.argus.core.AgentCounters;
import io.argus.core.config.AgentConfig;
import io.argus.core.config.AgentSettings;
import io.argus.core.metrics.CallMetricsTable;
import io.argus.core.trace.RecordedSpan;
import io.argus.core.trace.Sampler;
import io.argus.core.trace.Tracer;

import java.util.HashMap;
import java.util.Properties;

/**
 * An exporter wired as the agent wires it (queue, tracer at 100 %, counters), sending to
 * {@code argus.collector.address}; reconnection backoff at most 1 s, no metrics frames.
 */
final class TestExporter {

    final AgentCounters counters = new AgentCounters();
    final SpanQueue queue;
    final Exporter exporter;
    private final Tracer tracer;

    TestExporter(String collectorAddress, int batchSize, String maxDelay, int queueSize) {
        Properties props = new Properties();
        props.setProperty("argus.collector.address", collectorAddress);
        props.setProperty("argus.exporter.batchSize", Integer.toString(batchSize));
        props.setProperty("argus.exporter.maxDelay", maxDelay);
        props.setProperty("argus.exporter.queueSize", Integer.toString(queueSize));
        props.setProperty("argus.exporter.maxBackoff", "1s");
        props.setProperty("argus.metrics.interval", "60m"); // the longest: no metrics frames
        AgentSettings settings = new AgentSettings(new AgentConfig(props, new HashMap<String, String>(),
                new Properties()));
        queue = new SpanQueue(settings.queueSize, counters);
        tracer = new Tracer(new Sampler(100), queue);
        exporter = new Exporter(settings, queue, new CallMetricsTable(10), new CallMetricsTable(10), counters, "test");
        exporter.start();
    }

    /** Records {@code n} server spans, as application threads do. */
    void spans(int n) {
        for (int i = 0; i < n; i++) {
            RecordedSpan span = tracer.startServer("GET", "/x", null, null, null);
            tracer.end(span, System.nanoTime(), null, false);
        }
    }

    void shutdown() {
        exporter.shutdown(1000);
    }
}
