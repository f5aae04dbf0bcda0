package io.argus.perf.harness.run;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class CollectorProcessTest {

    @Test
    void prometheusCountersAreSummedOverLabels() {
        String text = """
                # HELP argus_collector_spans_stored_total
                # TYPE argus_collector_spans_stored_total counter
                argus_collector_spans_stored_total 1500.0
                argus_collector_frames_received_total{type="spans"} 10.0
                argus_collector_frames_received_total{type="metrics"} 4.0
                argus_collector_store_queue_depth 0.0
                """;
        Map<String, Double> m = CollectorProcess.parsePrometheus(text);
        assertThat(m).containsEntry("argus_collector_spans_stored_total", 1500.0)
                .containsEntry("argus_collector_frames_received_total", 14.0)
                .containsEntry("argus_collector_store_queue_depth", 0.0);
    }

    @Test
    void traceCountFromAnArrayOrAnObject() throws Exception {
        ObjectMapper json = new ObjectMapper();
        assertThat(CollectorProcess.countTraces(json.readTree("[{\"traceId\":\"a\"},{\"traceId\":\"b\"}]"))).isEqualTo(2);
        assertThat(CollectorProcess.countTraces(json.readTree("{\"traces\":[{},{},{}]}"))).isEqualTo(3);
        assertThat(CollectorProcess.countTraces(json.readTree("{\"total\":42,\"traces\":[]}"))).isEqualTo(42);
    }

    @Test
    void portsFromTheStartLine() {
        java.util.regex.Matcher m = CollectorProcess.STARTED.matcher(
                "12:00:00 INFO Argus collector started: ingest 127.0.0.1:40123, http http://127.0.0.1:40124/, data /tmp/d");
        assertThat(m.find()).isTrue();
        assertThat(m.group(2)).isEqualTo("40123");
        assertThat(m.group(4)).isEqualTo("40124");
    }

    @Test
    void otlpEndpointFromTheStartLine() {
        assertThat(CollectorProcess.otlpEndpoint("12:00:00 INFO Argus collector started: ingest 127.0.0.1:40123, http"
                + " http://127.0.0.1:40124/, otlp http://127.0.0.1:40125/v1/, data /tmp/d"))
                .isEqualTo("http://127.0.0.1:40125");
        assertThat(CollectorProcess.otlpEndpoint("Argus collector started: ingest 127.0.0.1:1, http http://127.0.0.1:2/,"
                + " data /tmp/d")).isNull();
    }
}
