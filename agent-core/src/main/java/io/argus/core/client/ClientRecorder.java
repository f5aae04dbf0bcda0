package io.argus.core.client;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.client.ClientHooks;
import io.argus.core.metrics.CallMetricsTable;
import io.argus.core.trace.RecordedSpan;
import io.argus.core.trace.Tracer;

/** The agent behind {@code ClientCalls}: client spans and HTTP client metrics. */
public final class ClientRecorder implements ClientHooks {

    private final Tracer tracer;
    private final CallMetricsTable metrics;

    public ClientRecorder(Tracer tracer, CallMetricsTable metrics) {
        this.tracer = tracer;
        this.metrics = metrics;
    }

    @Override
    public ActiveSpan start(String method, String host, int port, String url, long startNanos) {
        return tracer.startClient(method, host, port, url, startNanos);
    }

    @Override
    public void end(ActiveSpan span, long startNanos, String method, String host, int status, Throwable error) {
        long now = System.nanoTime();
        boolean failed = error != null || status >= 400 || status <= 0;
        metrics.record(method, host, status, now - startNanos, failed);
        if (span instanceof RecordedSpan) {
            RecordedSpan recorded = (RecordedSpan) span;
            recorded.setHttpStatus(status);
            tracer.end(recorded, now, error, failed);
        }
    }

    @Override
    public void endOnCompletion(Object completionStage, ActiveSpan span, long startNanos, String method, String host) {
        ClientCompletion.attach(this, completionStage, span, startNanos, method, host);
    }
}
