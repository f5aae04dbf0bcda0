package io.argus.collector.ingest;

import static io.argus.collector.testing.Spans.span;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.collector.Collector;
import io.argus.collector.testing.Api;
import io.argus.collector.testing.TestAgent;
import io.argus.collector.testing.TestConfigs;
import io.argus.protocol.CollectorFrame;
import io.argus.protocol.Gauge;
import io.argus.protocol.Heartbeat;
import io.argus.protocol.MetricBatch;
import io.argus.protocol.SpanBatch;
import io.argus.protocol.SpanKind;
import io.argus.protocol.SpanStatus;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded collector acknowledges, over a real connection, the frames of an agent that asked: the answer to the
 * handshake, then cumulative acknowledgements, each written once the frames it covers are committed (so a query
 * made when the acknowledgement arrives finds their spans). An agent that did not ask gets nothing back.
 */
class AcknowledgementTest {
    static final long BASE = 1_700_000_000_000_000_000L;

    @TempDir
    Path dir;

    private static SpanBatch trace(long traceLow, int spans) {
        SpanBatch.Builder b = SpanBatch.newBuilder();
        for (int i = 1; i <= spans; i++) {
            b.addSpans(span(0x77, traceLow, i, i == 1 ? 0 : 1, SpanKind.SPAN_KIND_SERVER, "GET /a", BASE + i, 1_000,
                    SpanStatus.SPAN_STATUS_OK));
        }
        return b.build();
    }

    private static String traceId(long traceLow) {
        return String.format("%016x%016x", 0x77, traceLow);
    }

    @Test
    void framesAreAcknowledgedOnceTheCommitHoldingThemIsDone() throws Exception {
        try (Collector collector = Collector.start(TestConfigs.ephemeral().dataDir(dir).build());
             TestAgent agent = new TestAgent(collector.ingestPort())) {
            Api api = new Api(collector);
            agent.helloWithAcks("acked", "acked-1");
            CollectorFrame reply = agent.read(10_000);
            assertThat(reply).isNotNull();
            assertThat(reply.hasHandshakeReply()).isTrue();
            assertThat(reply.getHandshakeReply().getAcks()).isTrue();

            agent.spans(trace(1, 3))
                    .metrics(MetricBatch.newBuilder().setTimestampMs(1_700_000_000_000L).setIntervalMs(10_000)
                            .addJvm(Gauge.newBuilder().setName("heap.used").setValue(1)).build())
                    .heartbeat(Heartbeat.newBuilder().setTimestampMs(1_700_000_000_000L).setSentSpans(3).build())
                    .spans(trace(2, 2));
            agent.awaitAck(4, 20_000);

            // acknowledged means committed: no waiting for the store
            JsonNode first = api.json("/api/traces/" + traceId(1));
            assertThat(first.path("spans")).hasSize(3);
            assertThat(api.json("/api/traces/" + traceId(2)).path("spans")).hasSize(2);
            assertThat(agent.read(300)).as("nothing more to acknowledge").isNull();
        }
    }

    @Test
    void anAgentThatDidNotAskGetsNothingBack() throws Exception {
        try (Collector collector = Collector.start(TestConfigs.ephemeral().dataDir(dir).build());
             TestAgent agent = new TestAgent(collector.ingestPort())) {
            Api api = new Api(collector);
            agent.hello("plain", "plain-1").spans(trace(3, 2));
            api.awaitMetric("argus_collector_spans_stored_total", 2);
            assertThat(api.json("/api/traces/" + traceId(3)).path("spans")).hasSize(2);
            assertThat(agent.read(500)).isNull();
        }
    }
}
