package io.argus.fleet.druid;

import io.argus.cluster.druid.DruidApi;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.argus.collector.storage.druid.DruidDatasources;
import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How long each datasource keeps its data: the coordinator's rules "load the last N days (and anything stamped in
 * the future), drop everything else". Druid drops whole segments, so data goes at segment granularity (hours for
 * spans, days for the others). {@link Duration#ZERO} keeps a datasource forever. Defaults match the embedded
 * collector's: spans 7 days, metrics (calls, JVM) 30 days, agent session events 30 days.
 */
public record RetentionRules(Duration spans, Duration metrics, Duration agents) {
    private static final ObjectMapper JSON = new ObjectMapper();

    public static RetentionRules defaults() {
        return new RetentionRules(Duration.ofDays(7), Duration.ofDays(30), Duration.ofDays(30));
    }

    /** Each datasource's rule list, as the coordinator takes it. */
    public Map<String, ArrayNode> rules(DruidDatasources ds) {
        Map<String, ArrayNode> out = new LinkedHashMap<>();
        out.put(ds.spans(), rules(spans));
        out.put(ds.calls(), rules(metrics));
        out.put(ds.jvm(), rules(metrics));
        out.put(ds.agents(), rules(agents));
        return out;
    }

    static ArrayNode rules(Duration keep) {
        ArrayNode rules = JSON.createArrayNode();
        if (keep.isZero()) {
            rules.addObject().put("type", "loadForever").putObject("tieredReplicants").put("_default_tier", 1);
            return rules;
        }
        rules.addObject().put("type", "loadByPeriod").put("period", keep.toString()).put("includeFuture", true)
                .putObject("tieredReplicants").put("_default_tier", 1);
        rules.addObject().put("type", "dropForever");
        return rules;
    }

    /** Posts every datasource's rules to the coordinator. */
    public void apply(DruidApi api, DruidDatasources ds) throws IOException, InterruptedException {
        for (Map.Entry<String, ArrayNode> e : rules(ds).entrySet()) {
            api.setRules(e.getKey(), e.getValue());
        }
    }
}
