package io.argus.core;

import io.argus.core.metrics.HttpMetricsTable;
import io.argus.core.metrics.HttpStats;
import io.argus.core.trace.RecordedSpan;
import io.argus.core.trace.Sampler;
import io.argus.core.trace.Tracer;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

class ClientCompletionTest {

    /** Anything with an int statusCode() on an interface, as java.net.http.HttpResponse has. */
    public interface Response {
        int statusCode();
    }

    @Test
    void endsTheCallWhenTheFutureCompletes() {
        List<RecordedSpan> spans = new ArrayList<>();
        Tracer tracer = new Tracer(new Sampler(100), spans::add);
        HttpMetricsTable client = new HttpMetricsTable(10);
        CoreHooks hooks = new CoreHooks(tracer, new HttpMetricsTable(10), client, new AgentCounters());

        RecordedSpan parent = tracer.startServer("GET", "/", null, null, null);
        RecordedSpan span = tracer.startClient("GET", "h", 80, "http://h/");
        CompletableFuture<Response> ok = new CompletableFuture<>();
        hooks.clientEndOnCompletion(ok, span, System.nanoTime(), "GET", "h");
        CompletableFuture<Response> failed = new CompletableFuture<>();
        hooks.clientEndOnCompletion(failed, null, System.nanoTime(), "GET", "h");
        assertThat(spans).isEmpty();

        ok.complete(() -> 201);
        failed.completeExceptionally(new IOException("refused"));
        assertThat(spans).containsExactly(span);
        assertThat(span.httpStatus()).isEqualTo(201);
        List<HttpStats.Snapshot> cells = client.takeSnapshots();
        assertThat(cells).extracting(c -> c.status).containsExactlyInAnyOrder(201, 0);
        assertThat(cells).filteredOn(c -> c.status == 0).first().extracting(c -> c.errors).isEqualTo(1L);
        tracer.end(parent, System.nanoTime(), null, false);
    }
}
