package io.argus.collector.otlp;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.argus.collector.HttpLimits;
import io.argus.collector.ingest.AgentRegistry;
import io.argus.collector.ingest.ClockWindow;
import io.argus.collector.testing.CountingSink;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.zip.GZIPOutputStream;

/**
 * Coverage-guided fuzzing of the OTLP decoder: any body, posted to {@code /v1/traces} or {@code /v1/metrics} as is,
 * gzipped, or declared gzip without being so, goes through the whole OTLP/HTTP pipeline of one connection (HTTP codec,
 * request filter, decompression, size cap, protobuf, mapping, routing, error answers). Every request gets an answer,
 * and it is never a server error: 200 with partial success, or 400/413 with a {@code google.rpc.Status}.
 *
 * <p>{@code mvn verify} runs the seed corpus in {@code src/test/resources/.../OtlpRequestFuzzTestInputs}; the
 * {@code fuzz} profile fuzzes (see {@code docs/collector.md}, "Fuzzing").
 */
class OtlpRequestFuzzTest {
    static final int MAX_BODY = 64 * 1024;
    static final Set<Integer> ANSWERS = Set.of(200, 400, 413);

    @FuzzTest(maxDuration = "10s")
    void anyBodyGetsAnAnswerThatIsNoServerError(byte[] input) throws Exception {
        // the first byte: which signal, and how the body is encoded
        int control = input.length == 0 ? 0 : input[0] & 0xff;
        byte[] body = input.length == 0 ? input : Arrays.copyOfRange(input, 1, input.length);
        String encoding = "";
        if ((control & 2) != 0) {
            ByteArrayOutputStream zipped = new ByteArrayOutputStream();
            try (GZIPOutputStream gz = new GZIPOutputStream(zipped)) {
                gz.write(body);
            }
            body = zipped.toByteArray();
            encoding = "Content-Encoding: gzip\r\n";
        } else if ((control & 4) != 0) {
            encoding = "Content-Encoding: gzip\r\n"; // and yet not gzip
        }
        String head = "POST " + ((control & 1) != 0 ? "/v1/metrics" : "/v1/traces") + " HTTP/1.1\r\nHost: fuzz\r\n"
                + "Content-Type: application/x-protobuf\r\n" + encoding + "Content-Length: " + body.length + "\r\n\r\n";
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        OtlpPipeline pipeline = new OtlpPipeline(MAX_BODY, new CountingSink(), new AgentRegistry(), meters,
                HttpLimits.DEFAULTS,
                new ClockWindow(Clock.systemUTC(), Duration.ofHours(1), Duration.ZERO, Duration.ZERO, meters), null);
        EmbeddedChannel ch = new EmbeddedChannel(false, false);
        pipeline.install(ch);
        ch.register();
        ch.writeInbound(Unpooled.wrappedBuffer(head.getBytes(StandardCharsets.US_ASCII), body));
        ch.runPendingTasks();
        StringBuilder out = new StringBuilder();
        for (Object o = ch.readOutbound(); o != null; o = ch.readOutbound()) {
            if (o instanceof ByteBuf b) {
                out.append(b.toString(StandardCharsets.ISO_8859_1));
                b.release();
            }
        }
        ch.finishAndReleaseAll();
        assertThat(out).as("an answer").startsWith("HTTP/1.1 ");
        int status = Integer.parseInt(out.substring(9, 12));
        assertThat(ANSWERS).as("status of the answer: " + out.substring(0, out.indexOf("\r\n"))).contains(status);
    }
}
