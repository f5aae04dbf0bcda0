package io.argus.fleet.druid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.collector.storage.druid.DruidDatasources;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The generated ingestion specs and retention rules (the Druid cluster test posts them to a real overlord). */
class DruidSpecsTest {
    private final DruidSpecs specs = new DruidSpecs(new DruidDatasources("argus-"));

    private static List<String> names(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.path("type").asText() + ":" + n.path("name").asText()));
        return out;
    }

    @Test
    void kafkaSupervisorReadsTheTopicOfTheDatasourceName() {
        JsonNode s = specs.kafkaSupervisor("argus-spans", "127.0.0.1:9092");
        assertThat(s.path("type").asText()).isEqualTo("kafka");
        JsonNode io = s.path("spec").path("ioConfig");
        assertThat(io.path("topic").asText()).isEqualTo("argus-spans");
        assertThat(io.path("consumerProperties").path("bootstrap.servers").asText()).isEqualTo("127.0.0.1:9092");
        assertThat(io.path("inputFormat").path("type").asText()).isEqualTo("json");
        assertThat(io.path("useEarliestOffset").asBoolean()).isTrue();
        assertThat(s.path("spec").path("tuningConfig").path("type").asText()).isEqualTo("kafka");
        assertThat(s.path("spec").path("dataSchema").path("dataSource").asText()).isEqualTo("argus-spans");
    }

    @Test
    void spansAreStoredRowByRowWithNanosecondsAndNestedTags() {
        JsonNode schema = specs.dataSchema("argus-spans");
        assertThat(schema.path("timestampSpec").toString()).isEqualTo("{\"column\":\"ts\",\"format\":\"millis\"}");
        assertThat(names(schema.path("dimensionsSpec").path("dimensions"))).containsExactly("string:trace_id",
                "string:span_id", "string:parent_span_id", "string:service", "string:instance", "string:kind",
                "string:name", "string:status", "long:start_ns", "long:duration_ns", "json:tags");
        assertThat(schema.path("metricsSpec")).isEmpty();
        assertThat(schema.path("granularitySpec").path("rollup").asBoolean()).isFalse();
        assertThat(schema.path("granularitySpec").path("segmentGranularity").asText()).isEqualTo("HOUR");
    }

    @Test
    void callsRollUpPerMinuteWithOneSummedColumnPerBucket() {
        JsonNode schema = specs.dataSchema("argus-calls");
        assertThat(names(schema.path("dimensionsSpec").path("dimensions"))).containsExactly("string:service",
                "string:instance", "string:kind", "string:method", "string:target", "long:status");
        List<String> metrics = names(schema.path("metricsSpec"));
        assertThat(metrics).hasSize(5 + DruidDatasources.BUCKETS);
        assertThat(metrics.subList(0, 6)).containsExactly("longSum:count", "longSum:errors", "longSum:sum_ns",
                "longMin:min_ns", "longMax:max_ns", "longSum:bucket_00");
        assertThat(metrics.get(metrics.size() - 1)).isEqualTo("longSum:bucket_71");
        JsonNode g = schema.path("granularitySpec");
        assertThat(g.path("queryGranularity").asText()).isEqualTo("MINUTE");
        assertThat(g.path("rollup").asBoolean()).isTrue();

        JsonNode fields = specs.inputFormat("argus-calls").path("flattenSpec").path("fields");
        assertThat(fields).hasSize(DruidDatasources.BUCKETS);
        assertThat(fields.get(3).toString())
                .isEqualTo("{\"type\":\"path\",\"name\":\"bucket_03\",\"expr\":\"$.bucket_counts[3]\"}");
        assertThat(specs.inputFormat("argus-spans").has("flattenSpec")).isFalse();
    }

    @Test
    void jvmAndAgentSchemas() {
        assertThat(names(specs.dataSchema("argus-jvm").path("dimensionsSpec").path("dimensions")))
                .containsExactly("string:service", "string:instance", "string:name", "double:value");
        assertThat(names(specs.dataSchema("argus-agents").path("dimensionsSpec").path("dimensions")))
                .startsWith("string:event", "string:service", "string:instance")
                .contains("long:pid", "long:sent_spans", "string:remote_address");
        assertThatThrownBy(() -> specs.dataSchema("argus-other")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void batchTasksAppendWithTheSameSchema() {
        JsonNode inline = specs.inlineBatchTask("argus-calls", "{\"ts\":1}");
        assertThat(inline.path("type").asText()).isEqualTo("index_parallel");
        JsonNode io = inline.path("spec").path("ioConfig");
        assertThat(io.path("inputSource").toString()).isEqualTo("{\"type\":\"inline\",\"data\":\"{\\\"ts\\\":1}\"}");
        assertThat(io.path("appendToExisting").asBoolean()).isTrue();
        assertThat(io.path("inputFormat")).isEqualTo(specs.inputFormat("argus-calls"));
        assertThat(inline.path("spec").path("dataSchema")).isEqualTo(specs.dataSchema("argus-calls"));

        JsonNode local = specs.localBatchTask("argus-spans", Path.of("/data/x"), "*.json");
        assertThat(local.path("spec").path("ioConfig").path("inputSource").toString())
                .isEqualTo("{\"type\":\"local\",\"baseDir\":\"/data/x\",\"filter\":\"*.json\"}");
    }

    @Test
    void retentionLoadsTheLastPeriodAndDropsTheRest() {
        Map<String, ?> rules = new RetentionRules(Duration.ofDays(3), Duration.ofHours(36), Duration.ZERO)
                .rules(new DruidDatasources("argus-"));
        assertThat(rules.keySet()).containsExactly("argus-spans", "argus-calls", "argus-jvm", "argus-agents");
        assertThat(rules.get("argus-spans").toString()).isEqualTo("[{\"type\":\"loadByPeriod\",\"period\":\"PT72H\","
                + "\"includeFuture\":true,\"tieredReplicants\":{\"_default_tier\":1}},{\"type\":\"dropForever\"}]");
        assertThat(rules.get("argus-jvm").toString()).contains("\"period\":\"PT36H\"");
        assertThat(rules.get("argus-agents").toString())
                .isEqualTo("[{\"type\":\"loadForever\",\"tieredReplicants\":{\"_default_tier\":1}}]");
        assertThat(RetentionRules.defaults()).isEqualTo(new RetentionRules(Duration.ofDays(7), Duration.ofDays(30),
                Duration.ofDays(30)));
    }
}
