package io.argus.collector.otlp;

import static org.assertj.core.api.Assertions.assertThat;

import io.argus.collector.Collector;
import io.argus.collector.CollectorConfig;
import io.argus.collector.testing.Api;
import io.argus.collector.testing.TestConfigs;
import io.opentelemetry.exporter.otlp.trace.OtlpGrpcSpanExporter;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Malformed OTLP/gRPC calls over real HTTP/2 (OkHttp with prior knowledge) and bytes that are not HTTP/2 at all:
 * each is refused with its gRPC status and counted by reason; the receiver then still takes a good export.
 */
class OtlpGrpcBadInputTest {
    static final MediaType GRPC = MediaType.get("application/grpc");
    static final String TRACES = "/opentelemetry.proto.collector.trace.v1.TraceService/Export";

    @TempDir
    static Path dir;
    static Collector collector;
    static Api api;
    static OkHttpClient http2;
    static String base;

    @BeforeAll
    static void start() {
        collector = Collector.start(TestConfigs.ephemeral().otlpGrpcPort(CollectorConfig.ANY_FREE_PORT)
                .maxOtlpBodyBytes(64 * 1024).dataDir(dir).build());
        api = new Api(collector);
        http2 = new OkHttpClient.Builder().protocols(List.of(Protocol.H2_PRIOR_KNOWLEDGE))
                .callTimeout(Duration.ofSeconds(20)).build();
        base = "http://127.0.0.1:" + collector.otlpGrpcPort();
    }

    @AfterAll
    static void stop() {
        collector.close();
    }

    record Answer(int httpStatus, String grpcStatus, String grpcMessage) {
    }

    static Answer call(String path, String contentType, String encoding, byte[] body) throws Exception {
        Request.Builder req = new Request.Builder().url(base + path).header("te", "trailers")
                .post(RequestBody.create(body, MediaType.get(contentType)));
        if (encoding != null) {
            req.header("grpc-encoding", encoding);
        }
        try (Response res = http2.newCall(req.build()).execute()) {
            res.body().bytes();
            String status = res.header("grpc-status");
            String message = res.header("grpc-message");
            if (status == null) {
                status = res.trailers().get("grpc-status");
                message = res.trailers().get("grpc-message");
            }
            return new Answer(res.code(), status, message);
        }
    }

    static byte[] framed(int flag, byte[] message) {
        return ByteBuffer.allocate(5 + message.length).put((byte) flag).putInt(message.length).put(message).array();
    }

    static byte[] gzip(byte[] bytes) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream z = new GZIPOutputStream(out)) {
            z.write(bytes);
        }
        return out.toByteArray();
    }

    static double rejected(String reason) {
        return api.metric("argus_collector_otlp_grpc_rejected_total{reason=\"" + reason + "\"}");
    }

    @Test
    void eachMalformedCallGetsItsStatusAndIsCounted() throws Exception {
        byte[] empty = ExportTraceServiceRequest.getDefaultInstance().toByteArray();
        Answer ok = call(TRACES, "application/grpc", null, framed(0, empty));
        assertThat(ok).isEqualTo(new Answer(200, "0", null));

        Answer unknown = call("/opentelemetry.proto.collector.logs.v1.LogsService/Export", "application/grpc", null,
                framed(0, empty));
        assertThat(unknown.grpcStatus()).isEqualTo("12");
        assertThat(unknown.grpcMessage()).contains("unknown method");
        assertThat(call(TRACES, "application/json", null, framed(0, empty)).httpStatus()).isEqualTo(415);

        Answer shortPrefix = call(TRACES, "application/grpc", null, new byte[] {0, 0, 0});
        assertThat(shortPrefix.grpcStatus()).isEqualTo("3");
        assertThat(shortPrefix.grpcMessage()).contains("truncated message prefix");
        byte[] lying = ByteBuffer.allocate(9).put((byte) 0).putInt(100).putInt(7).array();
        assertThat(call(TRACES, "application/grpc", null, lying).grpcMessage())
                .contains("announces 100 bytes but 4 follow");
        Answer garbage = call(TRACES, "application/grpc", null,
                framed(0, new byte[] {0x0a, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x0f}));
        assertThat(garbage.grpcStatus()).isEqualTo("3");
        assertThat(garbage.grpcMessage()).contains("not a valid /v1/traces export request");
        assertThat(call(TRACES, "application/grpc", null, framed(1, gzip(empty))).grpcStatus()).isEqualTo("12");
        assertThat(call(TRACES, "application/grpc", "br", framed(0, empty)).grpcStatus()).isEqualTo("12");
        assertThat(call(TRACES, "application/grpc", "gzip", framed(1, "not gzip".getBytes(StandardCharsets.UTF_8)))
                .grpcStatus()).isEqualTo("3");
        // over the cap before and after decompression
        assertThat(call(TRACES, "application/grpc", null, framed(0, new byte[70 * 1024])).grpcStatus()).isEqualTo("8");
        assertThat(call(TRACES, "application/grpc", "gzip", framed(1, gzip(new byte[1 << 20]))).grpcMessage())
                .contains("once decompressed");

        assertThat(rejected("unknown_method")).isEqualTo(1);
        assertThat(rejected("unsupported_media_type")).isEqualTo(1);
        assertThat(rejected("malformed_frame")).isEqualTo(2);
        assertThat(rejected("bad_protobuf")).isEqualTo(2);
        assertThat(rejected("unsupported_encoding")).isEqualTo(2);
        assertThat(rejected("too_large")).isEqualTo(2);
        assertStillServing();
    }

    @Test
    void bytesThatAreNotHttp2CloseOnlyTheirConnection() throws Exception {
        double before = rejected("protocol_error");
        for (byte[] junk : List.of("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII),
                new byte[] {(byte) 0xde, (byte) 0xad, (byte) 0xbe, (byte) 0xef, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
                    13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24})) {
            try (Socket s = new Socket("127.0.0.1", collector.otlpGrpcPort())) {
                s.setSoTimeout(10_000);
                OutputStream out = s.getOutputStream();
                out.write(junk);
                out.flush();
                InputStream in = s.getInputStream();
                // the server's SETTINGS and GOAWAY, then end of stream
                while (in.read() >= 0) {
                    // drain until closed
                }
            }
        }
        long deadline = System.currentTimeMillis() + 5_000;
        while (rejected("protocol_error") < before + 2 && System.currentTimeMillis() < deadline) {
            Thread.sleep(20);
        }
        assertThat(rejected("protocol_error")).isEqualTo(before + 2);
        assertStillServing();
    }

    /** A real exporter's call still succeeds. */
    static void assertStillServing() {
        try (OtlpGrpcSpanExporter exporter = OtlpGrpcSpanExporter.builder().setEndpoint(base)
                .setTimeout(Duration.ofSeconds(10)).build()) {
            String traceId = OtlpGrpcSdkTest.traceThrough(exporter, "after-bad-input", "/ok");
            assertThat(traceId).hasSize(32);
        }
    }
}
