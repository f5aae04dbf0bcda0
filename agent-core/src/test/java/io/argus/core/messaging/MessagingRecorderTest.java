package io.argus.core.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.HeaderGetter;
import io.argus.core.metrics.CallMetricsTable;
import io.argus.core.metrics.CallStats;
import io.argus.core.trace.RecordedSpan;
import io.argus.core.trace.Sampler;
import io.argus.core.trace.Tracer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The messaging hooks, driven as the kafka-clients plugin drives them. */
class MessagingRecorderTest {

    private static final HeaderGetter<Map<String, String>> MAP = Map::get;
    private final List<RecordedSpan> spans = new ArrayList<>();
    private final CallMetricsTable produced = new CallMetricsTable(10);
    private final CallMetricsTable consumed = new CallMetricsTable(10);

    private Tracer tracer;

    private MessagingRecorder recorder(double samplingPercent) {
        tracer = new Tracer(new Sampler(samplingPercent), spans::add);
        return new MessagingRecorder(tracer, produced, consumed);
    }

    @Test
    void aSendIsTracedOnlyUnderASampledSpanAndItsMessagesAreCountedWhenAcknowledged() {
        MessagingRecorder hooks = recorder(0);
        assertThat(hooks.startSend("kafka", "orders", System.nanoTime())).isNull();
        hooks.sent("kafka", "orders", 3, 4_000_000, false);
        hooks.sent("kafka", "orders", 2, 1_000_000, true);
        List<CallStats.Snapshot> cells = produced.takeSnapshots();
        assertThat(cells).extracting(c -> c.method + " " + c.target + " " + c.count + " " + c.errors + " " + c.sumNanos)
                .containsExactly("kafka orders 5 2 14000000");
        assertThat(spans).isEmpty();
    }

    @Test
    void aProcessedMessageContinuesItsProducersTraceAndLeavesNothingCurrent() {
        MessagingRecorder hooks = recorder(0);
        Map<String, String> headers = Map.of("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
        long start = System.nanoTime();
        ActiveSpan span = hooks.startProcess("kafka", "orders", start, headers, MAP);
        assertThat(span).isNotNull();
        assertThat(tracer.current()).isSameAs(span);
        hooks.endProcess(span, start, "kafka", "orders", 1, null);
        assertThat(tracer.current()).isNull();
        RecordedSpan recorded = spans.get(0);
        assertThat(recorded.kind()).isEqualTo(RecordedSpan.KIND_CONSUMER);
        assertThat(recorded.traceIdHex()).isEqualTo("0af7651916cd43dd8448eb211c80319c");
        assertThat(Long.toHexString(recorded.parentSpanId())).isEqualTo("b7ad6b7169203331");
        assertThat(recorded.displayName()).isEqualTo("process orders");
        assertThat(consumed.takeSnapshots()).extracting(c -> c.count).containsExactly(1L);
    }

    @Test
    void aMalformedContextIsANewRootWhenSampledAndNothingWhenNot() {
        Map<String, String> headers = Map.of("traceparent", "00-not-a-trace-id-01");
        long start = System.nanoTime();
        assertThat(recorder(0).startProcess("kafka", "orders", start, headers, MAP)).isNull();
        MessagingRecorder sampled = recorder(100);
        ActiveSpan span = sampled.startProcess("kafka", "orders", start, headers, MAP);
        sampled.endProcess(span, start, "kafka", "orders", 4, new IllegalStateException("x"));
        RecordedSpan root = spans.get(0);
        assertThat(root.parentSpanId()).isZero();
        assertThat(root.extraTagCount()).isEqualTo(1);
        assertThat(root.extraTagKey(0)).isEqualTo("messaging.batch.message_count");
        assertThat(root.extraTagValue(0)).isEqualTo("4");
        assertThat(consumed.takeSnapshots()).extracting(c -> c.count + " " + c.errors).containsExactly("4 4");
    }
}
