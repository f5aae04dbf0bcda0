package io.argus.collector.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.argus.collector.IngestLimits;
import io.argus.collector.testing.CountingSink;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.time.Clock;
import java.time.Duration;

/**
 * Coverage-guided fuzzing of the agent frame decoder: any byte stream, cut into writes of any size, goes through the
 * whole ingest pipeline of one connection (framing, memory budget, protobuf, validation, clock window,
 * acknowledgements, routing, rejection). Whatever comes in, nothing escapes the pipeline, no rejection is an
 * {@code internal_error} (an unexpected exception, i.e. a bug), the memory budget is whole again once the connection
 * closes, and nothing reaches the sink before a valid handshake.
 *
 * <p>{@code mvn verify} runs the seed corpus in {@code src/test/resources/.../AgentFrameFuzzTestInputs}; the
 * {@code fuzz} profile fuzzes (see {@code docs/collector.md}, "Fuzzing").
 */
class AgentFrameFuzzTest {
    static final int MAX_FRAME = 64 * 1024;

    @FuzzTest(maxDuration = "10s")
    void anyByteStreamIsHandledOrRejected(byte[] input) throws Exception {
        // the first byte: how the stream is cut (1-64 bytes per write) and whether the collector wants a token
        int control = input.length == 0 ? 0 : input[0] & 0xff;
        int chunk = (control & 0x3f) + 1;
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        IngestMetrics metrics = new IngestMetrics(meters);
        CountingSink sink = new CountingSink();
        IngestPipeline pipeline = new IngestPipeline(MAX_FRAME, (control & 0x40) != 0 ? "fuzz-token" : null, 100,
                Duration.ofMinutes(5), IngestLimits.DEFAULTS.withHandshake(Duration.ofSeconds(5), 1024)
                        .withMaxBufferedBytes(1 << 20),
                new ClockWindow(Clock.systemUTC(), Duration.ofHours(1), Duration.ZERO, Duration.ZERO, meters), sink,
                new AgentRegistry(), metrics, meters);
        EmbeddedChannel ch = new EmbeddedChannel(false, false);
        pipeline.install(ch);
        ch.register();
        boolean accepted = false;
        for (int i = 1; i < input.length && ch.isOpen(); i += chunk) {
            ch.writeInbound(Unpooled.wrappedBuffer(input, i, Math.min(chunk, input.length - i)));
            ch.runPendingTasks();
            accepted |= ch.attr(IngestAttributes.SESSION).get() != null;
        }
        ch.finishAndReleaseAll();
        assertThat(metrics.rejectedCount(RejectReason.INTERNAL_ERROR)).as("unexpected failures").isZero();
        assertThat(pipeline.bufferedBytes()).as("frame bytes still reserved after the close").isZero();
        if (!accepted) {
            assertThat(sink.spans.get() + sink.metricBatches.get()).as("data before a handshake").isZero();
        }
    }
}
