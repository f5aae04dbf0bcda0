package io.argus.collector.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.collector.Collector;
import io.argus.collector.testing.Api;
import io.argus.collector.testing.Spans;
import io.argus.collector.testing.TestAgent;
import io.argus.collector.testing.TestConfigs;
import io.argus.protocol.CollectorFrame;
import io.argus.protocol.CallMetric;
import io.argus.protocol.Frame;
import io.argus.protocol.RefusalReason;
import io.argus.protocol.Handshake;
import io.argus.protocol.MetricBatch;
import io.argus.protocol.SpanBatch;
import io.argus.protocol.SpanKind;
import io.argus.protocol.SpanStatus;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each kind of malformed or refused input closes only its own connection, is logged once at WARN with the
 * reason and the remote address, and is counted; a well-behaved agent connected alongside keeps working.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BadInputTest {
    static final String TOKEN = "s3cret";
    static final int MAX_FRAME = 1024;
    static final int MAX_BATCH = 100;

    @TempDir
    static Path dataDir;
    static Collector collector;
    static Api api;
    static TestAgent good;
    static final AtomicLong goodSpans = new AtomicLong();
    static final List<LogRecord> warnings = new ArrayList<>();
    static final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord r) {
            if (r.getLevel().intValue() >= Level.WARNING.intValue()) {
                synchronized (warnings) {
                    warnings.add(r);
                }
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeAll
    static void start() throws Exception {
        Logger.getLogger("io.argus.collector").addHandler(capture);
        collector = Collector.start(TestConfigs.ephemeral().dataDir(dataDir)
                .token(TOKEN).maxFrameBytes(MAX_FRAME).maxBatchSpans(MAX_BATCH).build());
        api = new Api(collector);
        good = new TestAgent(collector.ingestPort());
        good.send(Frame.newBuilder().setHandshake(withToken("good", "good-1", TOKEN)).build());
        sendGoodSpan();
    }

    @AfterAll
    static void stop() throws Exception {
        Logger.getLogger("io.argus.collector").removeHandler(capture);
        if (good != null) {
            good.close();
        }
        if (collector != null) {
            collector.close();
        }
    }

    static Handshake withToken(String service, String instance, String token) {
        return TestAgent.handshake(service, instance).toBuilder().setToken(token).build();
    }

    /** One more span on the good connection; its trace id is unique. */
    static void sendGoodSpan() throws Exception {
        long n = goodSpans.incrementAndGet();
        good.spans(SpanBatch.newBuilder().addSpans(Spans.simple(0x600d0000L + n, n)).build());
    }

    /** When each reason was last logged, to tell a rate-limited (left out) line from a missing one. */
    static final java.util.Map<String, Long> lastLogged = new java.util.HashMap<>();

    /**
     * Opens a connection, lets {@code misbehave} act on it, then checks close, count and log line: one WARN line
     * naming reason and address, unless a line for the same reason went out less than 10 s ago (then this one is
     * left out and counted in the next).
     */
    private void expectRejected(String reason, Misbehaviour misbehave) throws Exception {
        String counter = "argus_collector_frames_rejected_total{reason=\"" + reason + "\"}";
        double before = api.metric(counter);
        int warningsBefore;
        synchronized (warnings) {
            warningsBefore = warnings.size();
        }
        Long last = lastLogged.get(reason);
        boolean rateLimited = last != null && System.nanoTime() - last < 9_000_000_000L;
        int clientPort;
        try (TestAgent bad = new TestAgent(collector.ingestPort())) {
            clientPort = bad.localPort();
            misbehave.act(bad);
            assertThat(bad.closedByServer(5_000)).as("server closed the %s connection", reason).isTrue();
        }
        api.awaitMetric(counter, before + 1);
        assertThat(api.metric(counter)).isEqualTo(before + 1);
        long deadline = System.currentTimeMillis() + (rateLimited ? 300 : 5_000);
        List<String> mine = new ArrayList<>();
        while (System.currentTimeMillis() < deadline) {
            mine.clear();
            synchronized (warnings) {
                for (LogRecord r : warnings.subList(warningsBefore, warnings.size())) {
                    if (r.getMessage().contains("127.0.0.1:" + clientPort)) {
                        mine.add(r.getMessage());
                    }
                }
            }
            if (!mine.isEmpty()) {
                break;
            }
            Thread.sleep(20);
        }
        if (rateLimited) {
            assertThat(mine).as("left out: a %s line went out less than 10 s ago", reason).isEmpty();
        } else {
            assertThat(mine).hasSize(1);
            assertThat(mine.get(0)).contains(reason).contains("rejected agent connection from 127.0.0.1:"
                    + clientPort).doesNotContain("\n");
            lastLogged.put(reason, System.nanoTime());
        }
        // the well-behaved connection is unaffected
        sendGoodSpan();
        assertThat(good.closedByServer(1)).isFalse();
    }

    interface Misbehaviour {
        void act(TestAgent agent) throws Exception;
    }

    private static TestAgent hello(TestAgent a) throws Exception {
        return a.send(Frame.newBuilder().setHandshake(withToken("bad", "bad-1", TOKEN)).build());
    }

    @Test
    void garbageBytes() throws Exception {
        expectRejected("frame_too_large", a -> a.raw("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII)));
    }

    @Test
    void garbageWithPlausibleLength() throws Exception {
        expectRejected("bad_protobuf", a -> a.raw(new byte[] {0, 0, 0, 6, (byte) 0xde, (byte) 0xad, (byte) 0xbe,
                (byte) 0xef, (byte) 0xff, (byte) 0xff}));
    }

    @Test
    void oversizedLength() throws Exception {
        expectRejected("frame_too_large", a -> a.raw(TestAgent.lengthPrefix(MAX_FRAME + 1)));
    }

    @Test
    void hugeLength() throws Exception {
        expectRejected("frame_too_large", a -> hello(a).raw(TestAgent.lengthPrefix(Integer.MAX_VALUE)));
    }

    @Test
    void lengthWithTheHighBitSetIsABadLength() throws Exception {
        // 0xFFFFFFFF and 0xFFFFFFF0 are no frame length at all, not a frame that is too large
        expectRejected("bad_length", a -> a.raw(TestAgent.lengthPrefix(-1)));
        expectRejected("bad_length", a -> hello(a).raw(TestAgent.lengthPrefix(-16)));
    }

    @Test
    void truncatedFrame() throws Exception {
        expectRejected("truncated_frame", a -> {
            hello(a);
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            b.write(TestAgent.lengthPrefix(100));
            b.write(new byte[10]);
            a.raw(b.toByteArray());
            a.shutdownOutput();
        });
    }

    @Test
    void invalidProtobuf() throws Exception {
        // valid framing; the body starts a length-delimited field whose length varint never ends
        expectRejected("bad_protobuf", a -> {
            hello(a);
            a.raw(TestAgent.lengthPrefix(5));
            a.raw(new byte[] {0x0A, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF});
        });
    }

    @Test
    void emptyFrame() throws Exception {
        expectRejected("empty_frame", a -> hello(a).raw(TestAgent.lengthPrefix(0)));
    }

    @Test
    void spansBeforeHandshake() throws Exception {
        expectRejected("missing_handshake", a -> a.spans(SpanBatch.newBuilder().addSpans(Spans.simple(1, 1)).build()));
    }

    @Test
    void wrongToken() throws Exception {
        expectRejected("bad_token", a -> a.send(Frame.newBuilder()
                .setHandshake(withToken("bad", "bad-1", "guess")).build()));
    }

    @Test
    void refusedAgentIsToldWhyAndTheLogStaysShort() throws Exception {
        double before = api.metric("argus_collector_frames_rejected_total{reason=\"bad_token\"}");
        int logged;
        synchronized (warnings) {
            logged = warnings.size();
        }
        for (int i = 0; i < 20; i++) {
            try (TestAgent a = new TestAgent(collector.ingestPort())) {
                a.send(Frame.newBuilder().setHandshake(withToken("refused", "refused-1", "guess").toBuilder()
                        .setAcks(true)).build());
                CollectorFrame refusal = a.read(5_000);
                assertThat(refusal).as("attempt " + i).isNotNull();
                assertThat(refusal.getRefusal().getReason()).isEqualTo(RefusalReason.REFUSAL_REASON_BAD_TOKEN);
                assertThat(refusal.getRefusal().getMessage()).contains("token does not match");
                assertThat(a.closedByServer(5_000)).isTrue();
            }
        }
        api.awaitMetric("argus_collector_frames_rejected_total{reason=\"bad_token\"}", before + 20);
        long lines;
        synchronized (warnings) {
            lines = warnings.subList(logged, warnings.size()).stream()
                    .filter(r -> r.getMessage().contains("bad_token")).count();
        }
        assertThat(lines).as("WARN lines for 20 refusals within 10 s").isLessThanOrEqualTo(1);
        lastLogged.put("bad_token", System.nanoTime());
    }

    /**
     * An agent that learns of a refusal only when it next reads (the agent's exporter writes and reads on one
     * thread) gets the refusal all the same, even when it is still writing: the collector reads on after the refusal
     * instead of closing with those bytes unread, which would answer the agent's writes with a reset.
     */
    @Test
    void refusalReachesAnAgentThatKeepsWriting() throws Exception {
        Long last = lastLogged.get("frame_too_large");
        if (last == null || System.nanoTime() - last > 10_000_000_000L) {
            lastLogged.put("frame_too_large", System.nanoTime()); // this test's first refusal logs its line
        }
        byte[] chunk = new byte[64 * 1024];
        for (int i = 0; i < 5; i++) {
            try (TestAgent a = new TestAgent(collector.ingestPort())) {
                a.send(Frame.newBuilder().setHandshake(withToken("writer", "writer-1", TOKEN).toBuilder()
                        .setAcks(true)).build());
                a.raw(TestAgent.lengthPrefix(MAX_FRAME + 1));
                for (int k = 0; k < 64; k++) {
                    a.raw(chunk); // 4 MiB after the refused frame's length: far beyond the socket buffers
                }
                CollectorFrame first = a.read(5_000);
                while (first != null && first.hasHandshakeReply()) {
                    first = a.read(5_000);
                }
                assertThat(first).as("attempt " + i).isNotNull();
                assertThat(first.getRefusal().getReason()).isEqualTo(RefusalReason.REFUSAL_REASON_INVALID_FRAME);
                assertThat(first.getRefusal().getMessage()).contains("frame");
                assertThat(a.closedByServer(5_000)).isTrue();
            }
        }
    }

    @Test
    void missingToken() throws Exception {
        expectRejected("bad_token", a -> a.hello("bad", "bad-1"));
    }

    @Test
    void unsupportedProtocolVersion() throws Exception {
        expectRejected("unsupported_protocol_version", a -> a.send(Frame.newBuilder()
                .setHandshake(withToken("bad", "bad-1", TOKEN).toBuilder().setProtocolVersion(2)).build()));
    }

    @Test
    void handshakeWithoutService() throws Exception {
        expectRejected("bad_handshake", a -> a.send(Frame.newBuilder()
                .setHandshake(withToken(" ", "bad-1", TOKEN)).build()));
    }

    @Test
    void controlCharactersInNamesAreRefused() throws Exception {
        expectRejected("bad_handshake", a -> a.send(Frame.newBuilder()
                .setHandshake(withToken("bad\u0007svc", "bad-1", TOKEN)).build()));
        expectRejected("bad_handshake", a -> a.send(Frame.newBuilder()
                .setHandshake(withToken("fine", "inst\n2", TOKEN)).build()));
        assertThat(api.json("/api/services").toString()).doesNotContain("bad\\u0007svc").doesNotContain("inst\\n2");
    }

    @Test
    void secondHandshake() throws Exception {
        expectRejected("duplicate_handshake", a -> hello(hello(a)));
    }

    @Test
    void oversizedBatch() throws Exception {
        // 101 spans do not fit in this collector's 1 KiB frames: use one with the default frame cap
        try (Collector big = Collector.start(TestConfigs.ephemeral()
                .dataDir(dataDir.resolve("big")).maxBatchSpans(MAX_BATCH).build());
             TestAgent a = new TestAgent(big.ingestPort());
             TestAgent fine = new TestAgent(big.ingestPort())) {
            Api bigApi = new Api(big);
            fine.hello("fine", "fine-1");
            a.hello("bad", "bad-1");
            SpanBatch.Builder batch = SpanBatch.newBuilder();
            for (int i = 1; i <= MAX_BATCH + 1; i++) {
                batch.addSpans(Spans.simple(i, i));
            }
            a.spans(batch.build());
            assertThat(a.closedByServer(5_000)).isTrue();
            bigApi.awaitMetric("argus_collector_frames_rejected_total{reason=\"batch_too_large\"}", 1);
            SpanBatch.Builder ok = SpanBatch.newBuilder();
            for (int i = 1; i <= MAX_BATCH; i++) {
                ok.addSpans(Spans.simple(1000 + i, i));
            }
            fine.spans(ok.build());
            bigApi.awaitMetric("argus_collector_spans_stored_total", MAX_BATCH);
            assertThat(fine.closedByServer(1)).isFalse();
            assertThat(bigApi.metric("argus_collector_spans_stored_total")).isEqualTo(MAX_BATCH);
        }
    }

    @Test
    void idleConnectionIsClosed() throws Exception {
        try (Collector c = Collector.start(TestConfigs.ephemeral()
                .dataDir(dataDir.resolve("idle")).idleTimeout(Duration.ofMillis(300)).build());
             TestAgent a = new TestAgent(c.ingestPort())) {
            a.hello("idle", "idle-1");
            assertThat(a.closedByServer(5_000)).isTrue();
            Api idleApi = new Api(c);
            idleApi.awaitMetric("argus_collector_connections_idle_closed_total", 1);
            assertThat(idleApi.metric("argus_collector_frames_rejected_total{reason=\"internal_error\"}")).isZero();
        }
    }

    @Test
    void busyPortFailsClearly() {
        Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(() -> Collector.start(
                TestConfigs.ephemeral().ingestPort(collector.ingestPort())
                        .dataDir(dataDir.resolve("busy")).build()).close());
        assertThat(thrown).isInstanceOf(IllegalStateException.class).hasMessageContaining("cannot start the collector")
                .hasMessageContaining("in use");
        // the data directory was released again
        Collector.start(TestConfigs.ephemeral().dataDir(dataDir.resolve("busy")).build())
                .close();
    }

    @Test
    void callMetricOfAnUnknownKind() throws Exception {
        // 8 (scheduled jobs) is known; 9 is no kind at all
        expectRejected("invalid_metrics", a -> hello(a).metrics(MetricBatch.newBuilder().setTimestampMs(System.currentTimeMillis())
                .addCalls(CallMetric.newBuilder().setKindValue(9).setMethod("x").setTarget("y").setCount(1)).build()));
    }

    @Test
    void invalidSpans() throws Exception {
        expectRejected("invalid_span", a -> hello(a).spans(SpanBatch.newBuilder()
                .addSpans(Spans.span(0, 0, 1, 0, SpanKind.SPAN_KIND_SERVER, "zero trace", 1, 1,
                        SpanStatus.SPAN_STATUS_OK)).build()));
        expectRejected("invalid_span", a -> hello(a).spans(SpanBatch.newBuilder()
                .addSpans(Spans.span(1, 1, 0, 0, SpanKind.SPAN_KIND_SERVER, "zero span id", 1, 1,
                        SpanStatus.SPAN_STATUS_OK)).build()));
        expectRejected("invalid_span", a -> hello(a).spans(SpanBatch.newBuilder()
                .addSpans(Spans.span(1, 1, 1, 0, SpanKind.SPAN_KIND_SERVER, "negative duration", 1, -5,
                        SpanStatus.SPAN_STATUS_OK)).build()));
    }

    @Test
    @Order(Integer.MAX_VALUE)
    void wellBehavedAgentKeepsWorking() throws Exception {
        // runs last: everything the good agent sent while the others misbehaved has landed
        sendGoodSpan();
        long sent = goodSpans.get();
        api.awaitMetric("argus_collector_spans_stored_total", sent);
        JsonNode traces = api.await("/api/traces?service=good&limit=1000", t -> t.size() >= sent);
        assertThat(traces.size()).isGreaterThanOrEqualTo((int) sent);
        assertThat(api.json("/api/services").toString()).contains("\"good\"");
    }
}
