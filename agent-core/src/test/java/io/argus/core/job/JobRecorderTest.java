package io.argus.core.job;

import io.argus.bridge.ActiveSpan;
import io.argus.core.AgentCounters;
import io.argus.core.db.DatabaseRecorder;
import io.argus.core.db.StatementTracker;
import io.argus.core.metrics.CallMetricsTable;
import io.argus.core.metrics.CallStats;
import io.argus.core.trace.RecordedSpan;
import io.argus.core.trace.Sampler;
import io.argus.core.trace.Tracer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Job runs as the quartz and spring plugins drive them, and other stores' calls as the data store plugins do. */
class JobRecorderTest {

    private final List<RecordedSpan> spans = new ArrayList<>();
    private final Tracer tracer = new Tracer(new Sampler(100), spans::add);
    private final CallMetricsTable jobs = new CallMetricsTable(10);
    private final JobRecorder hooks = new JobRecorder(tracer, jobs);

    @AfterEach
    void clearThread() {
        tracer.attach(null);
    }

    @Test
    void aRunIsARootOfItsOwnAndTheThreadGetsBackWhatItHeld() {
        RecordedSpan request = tracer.startServer("GET", "/schedule", null, null, null);
        Object previous = hooks.enter();
        assertThat(previous).isSameAs(request);
        assertThat(tracer.current()).isNull();
        ActiveSpan run = hooks.start("Quartz reports.nightly");
        RecordedSpan recorded = (RecordedSpan) run;
        assertThat(recorded.parentSpanId()).isZero();
        assertThat(recorded.traceIdLow()).isNotEqualTo(request.traceIdLow());
        assertThat(tracer.current()).isSameAs(run);
        hooks.exit(run, System.nanoTime() - 1_000_000, "quartz", "reports.nightly", null, previous);
        assertThat(tracer.current()).isSameAs(request);
        assertThat(spans).containsExactly(recorded);
        assertThat(recorded.name()).isEqualTo("Quartz reports.nightly");
        assertThat(recorded.status()).isEqualTo(RecordedSpan.STATUS_OK);
    }

    @Test
    void everyRunCountsAndAFailedOneIsAnErrorEvenUnsampled() {
        Tracer unsampled = new Tracer(new Sampler(0), spans::add);
        JobRecorder off = new JobRecorder(unsampled, jobs);
        for (int i = 0; i < 3; i++) {
            Object previous = off.enter();
            ActiveSpan run = off.start("Scheduled Report.refresh");
            assertThat(run).isNull();
            off.exit(run, System.nanoTime() - 1_000, "spring", "Report.refresh",
                    i == 2 ? new IllegalStateException("boom") : null, previous);
        }
        List<CallStats.Snapshot> cells = jobs.takeSnapshots();
        assertThat(cells).hasSize(1);
        assertThat(cells.get(0).method).isEqualTo("spring");
        assertThat(cells.get(0).target).isEqualTo("Report.refresh");
        assertThat(cells.get(0).count).isEqualTo(3);
        assertThat(cells.get(0).errors).isEqualTo(1);
        assertThat(spans).isEmpty();
    }

    @Test
    void aSpanTheRunLeftOpenDoesNotOutliveIt() {
        Object previous = hooks.enter();
        ActiveSpan run = hooks.start("Quartz leaky");
        tracer.startInternal("left open by the job");
        hooks.exit(run, System.nanoTime(), "quartz", "leaky", null, previous);
        assertThat(tracer.current()).isNull();
    }

    @Test
    void otherStoresCallsCarryTheirTargetAndStatementAsGiven() {
        CallMetricsTable db = new CallMetricsTable(10);
        DatabaseRecorder calls = new DatabaseRecorder(tracer, db, new StatementTracker(new AgentCounters()));
        RecordedSpan request = tracer.startServer("GET", "/products", null, null, null);
        long start = calls.enter();
        ActiveSpan span = calls.startCall(null, "redis", "SET", calls.statement("SET", new Object[] {"user:1", null}, 2),
                null, null, "127.0.0.1", 6379);
        calls.exitCall(span, start, "SET", "redis://127.0.0.1:6379", null);
        RecordedSpan recorded = (RecordedSpan) span;
        assertThat(recorded.parentSpanId()).isEqualTo(request.spanId());
        assertThat(recorded.target()).isEqualTo("SET user:1 ?");
        assertThat(recorded.callTarget()).isEmpty();
        List<CallStats.Snapshot> cells = db.takeSnapshots();
        assertThat(cells).singleElement().satisfies(c -> {
            assertThat(c.method).isEqualTo("SET");
            assertThat(c.target).isEqualTo("redis://127.0.0.1:6379");
        });
        // an asynchronous command ends elsewhere: the target it started with keys the metrics
        ActiveSpan async = calls.startCall(request, "mongodb", "find", "{\"find\": \"orders\"}",
                "mongodb://db:27017/shop", "shop", "db", 27017);
        calls.endCall(async, System.nanoTime() - 5_000, "find", null, new RuntimeException("down"));
        assertThat(db.takeSnapshots()).singleElement().satisfies(c -> {
            assertThat(c.target).isEqualTo("mongodb://db:27017/shop");
            assertThat(c.errors).isEqualTo(1);
        });
        assertThat(((RecordedSpan) async).status()).isEqualTo(RecordedSpan.STATUS_ERROR);
    }
}
