package io.argus.collector.storage.druid;

import io.argus.collector.storage.LatencyBounds;
import java.util.List;

/**
 * The four datasources a scale-out deployment keeps in Druid, one per Kafka topic and named like it
 * ({@code <prefix>spans}, {@code <prefix>calls}, {@code <prefix>jvm}, {@code <prefix>agents}), and the columns the
 * query side reads. Spans, JVM samples and agent events are stored row by row; call metric cells are rolled up
 * per minute, their histogram flattened to one summed column per bucket ({@link #bucketColumn(int)}).
 */
public record DruidDatasources(String prefix) {

    /**
     * The latency histogram bounds every agent and the OTLP mapping use. The calls datasource sums bucket {@code i} of every cell into column {@code bucket_<i>}, so its percentiles
     * assume these bounds.
     */
    public static final long[] BUCKET_BOUNDS_NS = LatencyBounds.standardNanos();
    /** One bucket per bound plus the overflow bucket. */
    public static final int BUCKETS = BUCKET_BOUNDS_NS.length + 1;

    public String spans() {
        return prefix + "spans";
    }

    public String calls() {
        return prefix + "calls";
    }

    public String jvm() {
        return prefix + "jvm";
    }

    public String agents() {
        return prefix + "agents";
    }

    public List<String> all() {
        return List.of(spans(), calls(), jvm(), agents());
    }

    /** The summed column of histogram bucket {@code i}: {@code bucket_00} ... {@code bucket_71}. */
    public static String bucketColumn(int i) {
        return String.format("bucket_%02d", i);
    }
}
