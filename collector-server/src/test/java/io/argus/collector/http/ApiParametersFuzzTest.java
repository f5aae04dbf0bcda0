package io.argus.collector.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.argus.collector.HttpLimits;
import io.argus.collector.ingest.AgentRegistry;
import io.argus.collector.storage.Source;
import io.argus.collector.storage.duckdb.DuckDbStorage;
import io.argus.collector.testing.Spans;
import io.argus.protocol.SpanBatch;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.argus.collector.Listeners;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Coverage-guided fuzzing of the HTTP API's parameters: any query string (and any trace id) on every API route,
 * answered by the real handler over a real DuckDB store holding a few traces. The answer is JSON, a 200 or a 4xx
 * with an {@code error} message, never a 500 (an unexpected exception or a query the parameters broke).
 *
 * <p>{@code mvn verify} runs the seed corpus in {@code src/test/resources/.../ApiParametersFuzzTestInputs}; the
 * {@code fuzz} profile fuzzes (see {@code docs/collector.md}, "Fuzzing").
 */
class ApiParametersFuzzTest {
    static final List<String> ROUTES = List.of("/api/traces", "/api/metrics/http", "/api/metrics/jvm",
            "/api/series/red", "/api/series/jvm", "/api/servicemap", "/api/servicemap/traces", "/api/traces/",
            "/api/services", "/api/agents", "/api/status");
    static final ObjectMapper JSON = new ObjectMapper();

    static Path dir;
    static DuckDbStorage storage;
    static HttpApiHandler handler;

    /** Runs each query on the calling thread, so that the answer is there when the write returns. */
    static final class SameThread extends AbstractExecutorService {
        @Override
        public void execute(Runnable command) {
            command.run();
        }

        @Override
        public void shutdown() {
        }

        @Override
        public List<Runnable> shutdownNow() {
            return List.of();
        }

        @Override
        public boolean isShutdown() {
            return false;
        }

        @Override
        public boolean isTerminated() {
            return false;
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) {
            return true;
        }
    }

    @BeforeAll
    static void store() throws Exception {
        dir = Files.createTempDirectory("argus-api-fuzz");
        PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        storage = DuckDbStorage.open(dir, 10_000, meters);
        long now = System.currentTimeMillis() * 1_000_000L;
        SpanBatch.Builder b = SpanBatch.newBuilder();
        for (int i = 1; i <= 20; i++) {
            b.addSpans(Spans.span(1, i, i, 0, io.argus.protocol.SpanKind.SPAN_KIND_SERVER, "GET /x", now - i * 1_000_000L,
                    1_000_000L * i, io.argus.protocol.SpanStatus.SPAN_STATUS_OK, "http.route", "/x"));
        }
        storage.offerSpans(new Source("web", "web-1"), b.build());
        storage.flush(Duration.ofSeconds(30));
        handler = new HttpApiHandler(storage, storage, new AgentRegistry(), null, meters, new SameThread(), JSON,
                new StaticFiles(), Clock.systemUTC(), HttpLimits.DEFAULTS);
    }

    @AfterAll
    static void close() {
        if (storage != null) {
            storage.close();
        }
    }

    @FuzzTest(maxDuration = "10s")
    void anyParametersGetJsonAndNoServerError(byte[] input) throws Exception {
        String route = ROUTES.get(input.length == 0 ? 0 : (input[0] & 0xff) % ROUTES.size());
        String rest = new String(input.length == 0 ? input : Arrays.copyOfRange(input, 1, input.length),
                StandardCharsets.ISO_8859_1);
        String uri = route.endsWith("/") ? route + rest : route + "?" + rest;
        // through the listener's own front: a request line the codec cannot take is answered too (400, 414)
        EmbeddedChannel ch = new EmbeddedChannel(false, false);
        Listeners.httpFront(ch.pipeline(), HttpLimits.DEFAULTS, null);
        ch.pipeline().addLast(new HttpObjectAggregator(64 * 1024), handler);
        ch.register();
        ch.writeInbound(Unpooled.wrappedBuffer(("GET " + uri + " HTTP/1.1\r\nHost: fuzz\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1)));
        StringBuilder out = new StringBuilder();
        for (Object o = ch.readOutbound(); o != null; o = ch.readOutbound()) {
            ByteBuf b = (ByteBuf) o;
            out.append(b.toString(StandardCharsets.UTF_8));
            b.release();
        }
        ch.finishAndReleaseAll();
        assertThat(out).as("an answer to " + uri).startsWith("HTTP/1.1 ");
        int status = Integer.parseInt(out.substring(9, 12));
        String body = out.substring(out.indexOf("\r\n\r\n") + 4);
        assertThat(status).as(uri + " -> " + body).isIn(200, 400, 404, 414, 431);
        JsonNode json = JSON.readTree(body);
        if (status != 200) {
            assertThat(json.path("error").asText()).as(uri).isNotEmpty();
        }
    }
}
