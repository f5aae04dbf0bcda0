package io.argus.collector.testing;

import io.argus.collector.storage.IngestSink;
import io.argus.collector.storage.Source;
import io.argus.protocol.MetricBatch;
import io.argus.protocol.SpanBatch;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A sink that takes every batch at once and counts it, its hand-off done on the spot: for the fuzz tests of the
 * decoders in front of it, which run thousands of inputs a second and test what happens before storage.
 */
public final class CountingSink implements IngestSink {
    public final AtomicLong spans = new AtomicLong();
    public final AtomicLong metricBatches = new AtomicLong();

    @Override
    public boolean offerSpans(Source source, SpanBatch batch, Runnable handedOn) {
        spans.addAndGet(batch.getSpansCount());
        handedOn.run();
        return true;
    }

    @Override
    public boolean offerMetrics(Source source, MetricBatch batch, Runnable handedOn) {
        metricBatches.incrementAndGet();
        handedOn.run();
        return true;
    }

    @Override
    public boolean flush(Duration timeout) {
        return true;
    }

    @Override
    public void close() {
    }
}
