package io.argus.fleet.druid;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.argus.collector.storage.druid.DruidDatasources;
import java.nio.file.Path;
import java.util.List;

/**
 * The ingestion specs of the four datasources, one per Kafka topic of the record contract (JSON, one object per
 * record, {@code ts} in epoch milliseconds as {@code __time}); each datasource is named like its topic.
 *
 * <ul>
 *   <li>spans: one row per span, no rollup; {@code tags} a nested JSON column; hourly segments.</li>
 *   <li>calls: rolled up per minute and (service, instance, kind, method, target, status): {@code count},
 *       {@code errors}, {@code sum_ns} summed, {@code min_ns}/{@code max_ns} kept, and histogram bucket {@code i}
 *       ({@code bucket_counts[i]}) summed into {@code bucket_<i>}, so that percentiles over any range are exact
 *       merges of the agents' histograms.</li>
 *   <li>jvm: one row per gauge sample, no rollup.</li>
 *   <li>agents: one row per session event, no rollup.</li>
 * </ul>
 *
 * The same data schema serves the Kafka supervisor and the native batch task ({@code index_parallel}).
 */
public final class DruidSpecs {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final DruidDatasources ds;

    public DruidSpecs(DruidDatasources ds) {
        this.ds = ds;
    }

    public DruidDatasources datasources() {
        return ds;
    }

    /** The Kafka supervisor of {@code datasource}, reading the topic of the same name from the earliest offset. */
    public ObjectNode kafkaSupervisor(String datasource, String bootstrapServers) {
        ObjectNode root = JSON.createObjectNode().put("type", "kafka");
        ObjectNode spec = root.putObject("spec");
        spec.set("dataSchema", dataSchema(datasource));
        ObjectNode io = spec.putObject("ioConfig").put("type", "kafka").put("topic", datasource);
        io.set("inputFormat", inputFormat(datasource));
        io.putObject("consumerProperties").put("bootstrap.servers", bootstrapServers);
        io.put("taskCount", 1).put("replicas", 1).put("taskDuration", "PT1H").put("useEarliestOffset", true)
                .put("completionTimeout", "PT30M");
        spec.putObject("tuningConfig").put("type", "kafka").put("maxRowsInMemory", 100_000)
                .put("maxRowsPerSegment", 5_000_000);
        return root;
    }

    /** A native batch task appending newline-delimited JSON records (the topic's format) given inline. */
    public ObjectNode inlineBatchTask(String datasource, String ndjson) {
        ObjectNode source = JSON.createObjectNode().put("type", "inline").put("data", ndjson);
        return batchTask(datasource, source);
    }

    /** A native batch task appending the newline-delimited JSON files matching {@code filter} in {@code dir}. */
    public ObjectNode localBatchTask(String datasource, Path dir, String filter) {
        ObjectNode source = JSON.createObjectNode().put("type", "local")
                .put("baseDir", dir.toAbsolutePath().toString()).put("filter", filter);
        return batchTask(datasource, source);
    }

    private ObjectNode batchTask(String datasource, ObjectNode inputSource) {
        ObjectNode root = JSON.createObjectNode().put("type", "index_parallel");
        ObjectNode spec = root.putObject("spec");
        spec.set("dataSchema", dataSchema(datasource));
        ObjectNode io = spec.putObject("ioConfig").put("type", "index_parallel");
        io.set("inputSource", inputSource);
        io.set("inputFormat", inputFormat(datasource));
        io.put("appendToExisting", true);
        spec.putObject("tuningConfig").put("type", "index_parallel").put("maxNumConcurrentSubTasks", 1)
                .put("maxRowsInMemory", 100_000);
        return root;
    }

    /** JSON records; the calls topic's histogram array flattened to one field per bucket. */
    ObjectNode inputFormat(String datasource) {
        ObjectNode format = JSON.createObjectNode().put("type", "json");
        if (datasource.equals(ds.calls())) {
            ObjectNode flatten = format.putObject("flattenSpec").put("useFieldDiscovery", true);
            ArrayNode fields = flatten.putArray("fields");
            for (int i = 0; i < DruidDatasources.BUCKETS; i++) {
                fields.addObject().put("type", "path").put("name", DruidDatasources.bucketColumn(i))
                        .put("expr", "$.bucket_counts[" + i + "]");
            }
        }
        return format;
    }

    ObjectNode dataSchema(String datasource) {
        ObjectNode schema = JSON.createObjectNode().put("dataSource", datasource);
        schema.putObject("timestampSpec").put("column", "ts").put("format", "millis");
        ArrayNode dims = schema.putObject("dimensionsSpec").putArray("dimensions");
        ArrayNode metrics = schema.putArray("metricsSpec");
        ObjectNode granularity = schema.putObject("granularitySpec").put("type", "uniform");
        if (datasource.equals(ds.spans())) {
            strings(dims, "trace_id", "span_id", "parent_span_id", "service", "instance", "kind", "name", "status");
            typed(dims, "long", "start_ns", "duration_ns");
            typed(dims, "json", "tags");
            granularity.put("segmentGranularity", "HOUR").put("queryGranularity", "NONE").put("rollup", false);
        } else if (datasource.equals(ds.calls())) {
            strings(dims, "service", "instance", "kind", "method", "target");
            typed(dims, "long", "status");
            metric(metrics, "longSum", "count");
            metric(metrics, "longSum", "errors");
            metric(metrics, "longSum", "sum_ns");
            metric(metrics, "longMin", "min_ns");
            metric(metrics, "longMax", "max_ns");
            for (int i = 0; i < DruidDatasources.BUCKETS; i++) {
                metric(metrics, "longSum", DruidDatasources.bucketColumn(i));
            }
            granularity.put("segmentGranularity", "DAY").put("queryGranularity", "MINUTE").put("rollup", true);
        } else if (datasource.equals(ds.jvm())) {
            strings(dims, "service", "instance", "name");
            typed(dims, "double", "value");
            granularity.put("segmentGranularity", "DAY").put("queryGranularity", "NONE").put("rollup", false);
        } else if (datasource.equals(ds.agents())) {
            strings(dims, "event", "service", "instance", "agent_version", "host", "runtime_version",
                    "remote_address", "startup_mode");
            typed(dims, "long", "pid", "start_time_ms", "protocol_version", "dropped_spans", "dropped_metrics",
                    "advice_errors", "sent_spans", "observing_since_ms");
            granularity.put("segmentGranularity", "DAY").put("queryGranularity", "NONE").put("rollup", false);
        } else {
            throw new IllegalArgumentException("not one of " + ds.all() + ": " + datasource);
        }
        return schema;
    }

    private static void strings(ArrayNode dims, String... names) {
        typed(dims, "string", names);
    }

    private static void typed(ArrayNode dims, String type, String... names) {
        for (String n : names) {
            dims.addObject().put("type", type).put("name", n);
        }
    }

    private static void metric(ArrayNode metrics, String type, String column) {
        metrics.addObject().put("type", type).put("name", column).put("fieldName", column);
    }

    /** Every datasource of the deployment. */
    public List<String> all() {
        return ds.all();
    }
}
