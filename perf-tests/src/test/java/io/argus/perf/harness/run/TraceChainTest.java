package io.argus.perf.harness.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class TraceChainTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> DRUID = List.of("router", "broker", "historical");

    private static JsonNode spans(String... spans) throws Exception {
        return JSON.readTree("[" + String.join(",", spans) + "]");
    }

    private static String span(String id, String parent, String service, String kind) {
        return "{\"spanId\":\"" + id + "\",\"parentSpanId\":" + (parent == null ? "null" : "\"" + parent + "\"")
                + ",\"service\":\"" + service + "\",\"kind\":\"" + kind + "\",\"name\":\"x\"}";
    }

    @Test
    void aCompleteChainPasses() throws Exception {
        assertThat(TraceChain.problem(spans(span("1", null, "router", "SERVER"), span("2", "1", "router", "CLIENT"),
                span("3", "2", "broker", "SERVER"), span("4", "3", "broker", "CLIENT"),
                span("5", "4", "historical", "SERVER")), DRUID)).isNull();
    }

    @Test
    void aMissingHopIsNamed() throws Exception {
        assertThat(TraceChain.problem(spans(span("1", null, "router", "SERVER"), span("2", "1", "router", "CLIENT"),
                span("3", "2", "broker", "SERVER"), span("5", "3", "historical", "SERVER")), DRUID))
                .isEqualTo("no server span of historical whose parent is a client span of broker");
    }

    @Test
    void aDanglingParentOrASecondRootIsReported() throws Exception {
        assertThat(TraceChain.problem(spans(span("1", null, "router", "SERVER"), span("3", "9", "broker", "SERVER")),
                DRUID)).contains("has parent 9, which is not in the trace");
        assertThat(TraceChain.problem(spans(span("1", null, "router", "SERVER"), span("3", "", "broker", "SERVER")),
                DRUID)).startsWith("two root spans");
        assertThat(TraceChain.problem(spans(span("1", null, "broker", "SERVER")), DRUID))
                .startsWith("the root is broker SERVER");
    }
}
