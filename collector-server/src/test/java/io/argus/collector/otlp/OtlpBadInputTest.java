package io.argus.collector.otlp;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import io.argus.collector.Collector;
import io.argus.collector.CollectorConfig;
import io.argus.collector.testing.Api;
import io.argus.collector.testing.TestConfigs;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Refused OTLP requests over real sockets get the status the OTLP/HTTP specification names, a
 * {@code google.rpc.Status} body, and a count in {@code argus_collector_otlp_rejected_total}; the receiver keeps
 * serving good requests. Also: partial success for bad spans inside a good request, and gzip bodies.
 */
class OtlpBadInputTest {
    static final int MAX_BODY = 1024;
    static final String PROTOBUF = "application/x-protobuf";

    @TempDir
    static Path dataDir;
    static Collector collector;
    static Api api;
    static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    static void start() {
        collector = Collector.start(TestConfigs.ephemeral().otlpHttpPort(CollectorConfig.ANY_FREE_PORT)
                .maxOtlpBodyBytes(MAX_BODY).dataDir(dataDir).build());
        api = new Api(collector);
    }

    @AfterAll
    static void stop() {
        collector.close();
    }

    static HttpResponse<byte[]> send(HttpRequest.Builder b) throws IOException, InterruptedException {
        return CLIENT.send(b.timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    static HttpRequest.Builder post(String path, String contentType, byte[] body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(path)).POST(HttpRequest.BodyPublishers.ofByteArray(body));
        return contentType == null ? b : b.header("Content-Type", contentType);
    }

    static URI uri(String path) {
        return URI.create("http://127.0.0.1:" + collector.otlpHttpPort() + path);
    }

    static double rejected(String reason) {
        return api.metric("argus_collector_otlp_rejected_total{reason=\"" + reason + "\"}");
    }

    /** The google.rpc.Status message (field 2) of an error body. */
    static String statusMessage(byte[] body) throws IOException {
        CodedInputStream in = CodedInputStream.newInstance(body);
        String message = null;
        int tag;
        while ((tag = in.readTag()) != 0) {
            if (tag == 18) {
                message = in.readString();
            } else {
                in.skipField(tag);
            }
        }
        return message;
    }

    static void assertRefused(HttpResponse<byte[]> res, int status, String reason, double before, String message)
            throws IOException {
        assertThat(res.statusCode()).isEqualTo(status);
        assertThat(res.headers().firstValue("content-type")).contains(PROTOBUF);
        assertThat(statusMessage(res.body())).contains(message);
        assertThat(rejected(reason)).isEqualTo(before + 1);
    }

    static byte[] id(int length, int seed) {
        byte[] id = new byte[length];
        Arrays.fill(id, (byte) seed);
        return id;
    }

    static Span span(byte[] traceId, byte[] spanId, String name) {
        return Span.newBuilder().setTraceId(ByteString.copyFrom(traceId)).setSpanId(ByteString.copyFrom(spanId))
                .setName(name).setKind(Span.SpanKind.SPAN_KIND_SERVER)
                .setStartTimeUnixNano(System.currentTimeMillis() * 1_000_000L)
                .setEndTimeUnixNano(System.currentTimeMillis() * 1_000_000L + 1_000_000L).build();
    }

    static ExportTraceServiceRequest request(String service, Span... spans) {
        return ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans.newBuilder()
                .setResource(Resource.newBuilder().addAttributes(KeyValue.newBuilder().setKey("service.name")
                        .setValue(AnyValue.newBuilder().setStringValue(service))))
                .addScopeSpans(ScopeSpans.newBuilder().addAllSpans(Arrays.asList(spans)))).build();
    }

    @Test
    void garbageIs400() throws Exception {
        double before = rejected("bad_protobuf");
        byte[] garbage = "\u00ff\u00ffthis is not protobuf at all\u00ff".getBytes(StandardCharsets.ISO_8859_1);
        assertRefused(send(post("/v1/traces", PROTOBUF, garbage)), 400, "bad_protobuf", before,
                "not a valid /v1/traces export request");
    }

    @Test
    void tooBigIs413() throws Exception {
        double before = rejected("too_large");
        byte[] big = request("big", span(id(16, 1), id(8, 1), "x".repeat(4 * MAX_BODY))).toByteArray();
        assertRefused(send(post("/v1/traces", PROTOBUF, big)), 413, "too_large", before, "the limit is 1024");
    }

    @Test
    void tooBigWithoutALengthIs413() throws Exception {
        double before = rejected("too_large");
        byte[] big = new byte[4 * MAX_BODY];
        HttpRequest.Builder chunked = HttpRequest.newBuilder(uri("/v1/metrics")).header("Content-Type", PROTOBUF)
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(big)));
        assertRefused(send(chunked), 413, "too_large", before, "larger than the limit of 1024 bytes");
    }

    @Test
    void getIs405() throws Exception {
        double before = rejected("method_not_allowed");
        HttpResponse<byte[]> res = send(HttpRequest.newBuilder(uri("/v1/traces")).GET());
        assertRefused(res, 405, "method_not_allowed", before, "only POST is allowed");
        assertThat(res.headers().firstValue("allow")).contains("POST");
    }

    @Test
    void wrongContentTypeIs415() throws Exception {
        double before = rejected("unsupported_media_type");
        byte[] good = request("typed", span(id(16, 2), id(8, 2), "x")).toByteArray();
        assertRefused(send(post("/v1/traces", "application/json", "{}".getBytes(StandardCharsets.UTF_8))), 415,
                "unsupported_media_type", before, "'application/json' not supported");
        assertRefused(send(post("/v1/traces", null, good)), 415, "unsupported_media_type", before + 1,
                "content type missing");
        assertRefused(send(post("/v1/traces", PROTOBUF, good).header("Content-Encoding", "br")), 415,
                "unsupported_media_type", before + 2, "content encoding 'br' not supported");
    }

    @Test
    void unknownPathIs404() throws Exception {
        double before = rejected("not_found");
        assertRefused(send(post("/v1/logs", PROTOBUF, new byte[0])), 404, "not_found", before, "unknown path");
    }

    @Test
    void badSpansAreRefusedOneByOne() throws Exception {
        ExportTraceServiceRequest req = request("partial",
                span(id(16, 3), id(8, 3), "good"),
                span(id(8, 4), id(8, 4), "short trace id"),
                span(id(16, 5), id(8, 0), "zero span id"));
        HttpResponse<byte[]> res = send(post("/v1/traces", PROTOBUF, req.toByteArray()));
        assertThat(res.statusCode()).isEqualTo(200);
        ExportTraceServiceResponse answer = ExportTraceServiceResponse.parseFrom(res.body());
        assertThat(answer.getPartialSuccess().getRejectedSpans()).isEqualTo(2);
        assertThat(answer.getPartialSuccess().getErrorMessage())
                .contains("2 refused", "span 'short trace id' has an invalid trace id");
        api.await("/api/traces?service=partial", j -> j.size() == 1);
        assertThat(api.metric("argus_collector_otlp_spans_rejected_total")).isGreaterThanOrEqualTo(2);
    }

    @Test
    void gzipBodiesAreAccepted() throws Exception {
        ByteArrayOutputStream zipped = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(zipped)) {
            gz.write(request("zipped", span(id(16, 6), id(8, 6), "zipped")).toByteArray());
        }
        HttpResponse<byte[]> res = send(post("/v1/traces", PROTOBUF, zipped.toByteArray())
                .header("Content-Encoding", "gzip"));
        assertThat(res.statusCode()).isEqualTo(200);
        assertThat(ExportTraceServiceResponse.parseFrom(res.body()).hasPartialSuccess()).isFalse();
        api.await("/api/traces?service=zipped", j -> j.size() == 1);
    }

    @Test
    void decompressionBombIs413() throws Exception {
        // 256 KiB of zeros gzip to a few hundred bytes: within the cap on the wire, far past it once expanded
        ByteArrayOutputStream zipped = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(zipped)) {
            gz.write(new byte[256 * 1024]);
        }
        assertThat(zipped.size()).isLessThan(MAX_BODY);
        double before = rejected("too_large");
        assertRefused(send(post("/v1/traces", PROTOBUF, zipped.toByteArray()).header("Content-Encoding", "gzip")),
                413, "too_large", before, "limit of 1024 bytes");
        // the receiver goes on serving
        HttpResponse<byte[]> res = send(post("/v1/traces", PROTOBUF,
                request("after-bomb", span(id(16, 7), id(8, 7), "after")).toByteArray()));
        assertThat(res.statusCode()).isEqualTo(200);
    }

    @Test
    void corruptGzipIs400() throws Exception {
        double before = rejected("malformed_request");
        assertRefused(send(post("/v1/traces", PROTOBUF, "not gzip at all".getBytes(StandardCharsets.UTF_8))
                .header("Content-Encoding", "gzip")), 400, "malformed_request", before, "cannot decompress");
    }
}
