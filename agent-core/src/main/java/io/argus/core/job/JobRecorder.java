package io.argus.core.job;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.job.JobHooks;
import io.argus.core.metrics.CallMetricsTable;
import io.argus.core.trace.RecordedSpan;
import io.argus.core.trace.Tracer;

/** The agent behind {@code JobCalls}: a root span per run of a scheduled job, and metrics per (scheduler, job). */
public final class JobRecorder implements JobHooks {

    private final Tracer tracer;
    private final CallMetricsTable metrics;

    public JobRecorder(Tracer tracer, CallMetricsTable metrics) {
        this.tracer = tracer;
        this.metrics = metrics;
    }

    @Override
    public Object enter() {
        return tracer.attach(null);
    }

    @Override
    public ActiveSpan start(String spanName) {
        return tracer.startInternal(spanName);
    }

    @Override
    public void exit(ActiveSpan span, long startNanos, String scheduler, String job, Throwable error, Object previous) {
        long now = System.nanoTime();
        try {
            if (startNanos != 0) {
                metrics.record(scheduler, job, 0, now - startNanos, error != null);
            }
            if (span instanceof RecordedSpan) {
                tracer.end((RecordedSpan) span, now, error, error != null);
            }
        } finally {
            // whatever the run left current (a span it did not end) goes; the thread gets back what it had
            tracer.attach(previous instanceof RecordedSpan ? (RecordedSpan) previous : null);
        }
    }
}
