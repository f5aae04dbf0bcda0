package io.argus.perf.load.report;

import io.argus.perf.harness.report.Markdown;
import io.argus.perf.harness.report.Section;
import io.argus.perf.load.model.RunResults;

/** How the run measured: launches, closed loop, Gatling, resources, statistics. */
final class MethodSection implements Section<RunResults> {

    @Override
    public void render(RunResults r, Markdown md) {
        RunResults.Settings st = r.settings;
        md.section("Method");
        if (st.placementNote != null) {
            md.bullet(st.placementNote);
        }
        md.bullet("Every scenario runs in fresh JVMs. The " + st.target + " target's processes start one after the other, "
                + "each once the previous one answers; the agent of the scenario goes on every process.");
        md.bullet("**Startup delay**: " + st.startupRuns + " launch(es) per scenario, interleaved (pass 1: every scenario "
                + "once in order, then pass 2, ...) so that drift of the machine hits every scenario alike. Per "
                + "process: from just before the fork to the first successful HTTP response of its readiness check "
                + "(polled every 5 ms over a fresh socket; an accepted poll is waited for, as a start gate may hold it), "
                + "and the value of its 'Started @Nms' log line (ms since "
                + "JVM start, as the application reports it). The startup figure is the sum over the processes.");
        md.bullet("**Observed start-up** (scenarios whose agent traces a sampled caller and exports to the run's collector: "
                + "the Argus scenarios but jvm-only, and otel-otlp): every readiness poll carries a sampled W3C traceparent "
                + "of its own; from the first answer on the harness keeps probing (every 10 ms, then every 2% of the time "
                + "since), and asks the collector for the probes' traces (`GET /api/traces/{traceId}`) until one is "
                + "stored or " + st.observeTimeoutSeconds + " s have passed. Observed is the sending of the earliest "
                + "stored probe. Only then (and once Argus printed its start line) does the next process start. Its ratio "
                + "is taken against the baseline's ready time: what a user waits for before the application is seen.");
        md.bullet("**Closed loop** (the seed's method): " + st.loadPasses + " fresh launch(es) per scenario, interleaved "
                + "across scenarios like the start-up launches (each also a start-up sample); per launch " + st.rounds + " round(s) of "
                + st.roundSize + " sequential requests on one keep-alive HTTP/1.1 connection (java.net.http); each "
                + "request timed with System.nanoTime() and recorded in a Micrometer Timer with "
                + "publishPercentiles(0.95, 0.99), publishPercentileHistogram() and percentilePrecision(3), one Timer "
                + "per round. Per round: min, max, avg, P95, P99, total (sum of latencies) and QPS = requests / total, "
                + "as in the seed. The first " + st.discardRounds + " round(s) of each launch are discarded as warm-up.");
        md.bullet("**Gatling** " + r.machine.gatlingVersion + ": after the closed loop, on the same JVMs, " + st.gatlingUsers
                + " virtual users each looping on its own keep-alive connection for " + st.gatlingSeconds + " s, "
                + "in a separate JVM. QPS/P95/P99 are read from the generated report's index.html statistics table "
                + "(whole milliseconds, as Gatling records them).");
        md.bullet("**CPU and allocation per request**, per process and per measured round (contiguous windows, read "
                + "before the first round and after each): CPU from each thread's run time "
                + "(/proc/<pid>/task/<tid>/schedstat, ns; /proc/<pid>/stat ticks for a window in which a thread ended), "
                + "bytes from ThreadMXBean.getThreadAllocatedBytes over a local JMX connection the harness opens after "
                + "start-up (its own threads left out); each divided by the round's requests. Gatling: the same over its "
                + "whole run. Also the whole measured window from /proc/<pid>/stat.");
        md.bullet("**Resources**: peak RSS (VmHWM) and threads from /proc/<pid>/status at the end; GC count and time "
                + "from `jstat -gc` over the measured rounds and in total; heap in use after a full GC forced with "
                + "`jcmd <pid> GC.run` at the end.");
        md.bullet("**Collector cost**: the collector's CPU time (utime + stime of its JVM) from the start of the load "
                + "phase until its stored-span counter settled after it, divided by the spans it stored in that time "
                + "(`argus_collector_spans_stored_total` from its `GET /metrics`) and by the requests sent: a cost of its "
                + "own, beside the application's CPU per request.");
        md.bullet("**Statistics**: medians with a distribution-free 95% confidence interval from order statistics "
                + "(binomial: the narrowest (x(k), x(n+1-k)) with coverage ≥ 95%; for n < 6 the full range and its "
                + "actual coverage); ratio of medians to the baseline; the Hodges-Lehmann ratio (on the log values) and "
                + "difference with their distribution-free 95% intervals (order statistics of the pairwise ratios or "
                + "differences, the critical value exact from the Mann-Whitney distribution up to 50 values a side, as "
                + "R's `wilcox.test(conf.int = TRUE)`; unbounded below 4 a side); two-sided Mann-Whitney U test (exact "
                + "without ties for n ≤ 50, else normal approximation with tie and continuity correction); Cohen's d with "
                + "the pooled SD; Tukey fences (1.5 IQR, type-7 quartiles) for outliers.");
        md.bullet("**Verdicts** are non-inferiority decisions on the interval: PASS only when the whole 95% interval of the "
                + "ratio (or of the difference, or of the collector's own value) is on the good side of the target, FAIL "
                + "when it is wholly on the bad side, INCONCLUSIVE otherwise, with the samples a side likely to decide it: "
                + "n = 2((1.96 + 0.84) c s / d)² for the pooled SD s of the (log) samples, the distance d of the estimate "
                + "from the target and c² = π/3 (the Hodges-Lehmann estimator against the mean), at least 4 and at least "
                + "one more than there are.");
        md.bullet("Samples compared: startup launches (n = " + (st.startupRuns + st.loadPasses) + " per scenario) and measured rounds (n = "
                + st.loadPasses * Math.max(0, st.rounds - st.discardRounds) + "). Few samples mean wide intervals and large p-values: "
                + "use --full for figures to publish.");
        for (String note : r.notes) {
            md.bullet(note);
        }
        md.line("");
    }
}
