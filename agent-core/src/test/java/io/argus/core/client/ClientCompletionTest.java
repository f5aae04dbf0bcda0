package io.argus.core.client;

import io.argus.core.metrics.CallMetricsTable;
import io.argus.core.metrics.CallStats;
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
        CallMetricsTable client = new CallMetricsTable(10);
        ClientRecorder hooks = new ClientRecorder(tracer, client);

        RecordedSpan parent = tracer.startServer("GET", "/", null, null, null);
        RecordedSpan span = tracer.startClient("GET", "h", 80, "http://h/");
        CompletableFuture<Response> ok = new CompletableFuture<>();
        hooks.endOnCompletion(ok, span, System.nanoTime(), "GET", "h");
        CompletableFuture<Response> failed = new CompletableFuture<>();
        hooks.endOnCompletion(failed, null, System.nanoTime(), "GET", "h");
        assertThat(spans).isEmpty();

        ok.complete(() -> 201);
        failed.completeExceptionally(new IOException("refused"));
        assertThat(spans).containsExactly(span);
        assertThat(span.httpStatus()).isEqualTo(201);
        List<CallStats.Snapshot> cells = client.takeSnapshots();
        assertThat(cells).extracting(c -> c.status).containsExactlyInAnyOrder(201, 0);
        assertThat(cells).filteredOn(c -> c.status == 0).first().extracting(c -> c.errors).isEqualTo(1L);
        tracer.end(parent, System.nanoTime(), null, false);
    }
}
