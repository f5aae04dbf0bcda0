package io.argus.perf.load.run;

import io.argus.perf.harness.http.Http;
import io.argus.perf.harness.http.RequestSpec;
import io.argus.perf.harness.stats.Stats;
import io.argus.perf.load.model.RunResults.Round;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.HistogramSnapshot;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The seed's closed loop: rounds of {@code roundSize} requests sent one after the other on one
 * keep-alive connection, each timed with {@code System.nanoTime()} around the call and recorded
 * in a fresh Micrometer {@link Timer} per round with {@code publishPercentiles(0.95, 0.99)} and a
 * percentile histogram. A templated body (the seed's rising timestamp) is filled in before the
 * clock starts. Per round: min, max, avg, P95, P99, total (sum of latencies) and QPS
 * (requests / total), as in the seed, plus exact percentiles, the wall-clock time and the errors.
 */
public final class ClosedLoop {

    private final RequestSpec request;
    private final HttpClient client = Http.newClient();
    private final HttpRequest httpRequest;
    /** Requests sent so far, over all rounds: the rising value of a templated body. */
    private long sent;

    public ClosedLoop(RequestSpec request) {
        this.request = request;
        this.httpRequest = Http.toRequest(request, Duration.ofSeconds(30));
    }

    public Round runRound(int index, int roundSize, boolean discarded) throws InterruptedException {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Timer timer = Timer.builder("argus.perf.request")
                .publishPercentiles(0.95, 0.99)
                .publishPercentileHistogram()
                // 3 significant digits: the default (1) quantises P99 by up to ~10%, too coarse for a 3% target
                .percentilePrecision(3)
                .minimumExpectedValue(Duration.ofNanos(50_000))
                .maximumExpectedValue(Duration.ofSeconds(30))
                // one window for the whole round
                .distributionStatisticExpiry(Duration.ofHours(1))
                .distributionStatisticBufferLength(1)
                .register(registry);
        int[] latenciesUs = new int[roundSize];
        double[] latMs = new double[roundSize];
        int errors = 0;
        long min = Long.MAX_VALUE;
        long wallStart = System.nanoTime();
        for (int i = 0; i < roundSize; i++) {
            HttpRequest next = request.rising() ? Http.toRequest(request.withBodyAt(sent), Duration.ofSeconds(30)) : httpRequest;
            sent++;
            boolean ok;
            long s = System.nanoTime();
            try {
                HttpResponse<Void> r = client.send(next, HttpResponse.BodyHandlers.discarding());
                ok = request.matches(r.statusCode());
            } catch (IOException e) {
                ok = false;
            }
            long t = System.nanoTime() - s;
            if (!ok) {
                errors++;
            }
            min = Math.min(min, t);
            timer.record(t, TimeUnit.NANOSECONDS);
            latenciesUs[i] = (int) Math.min(Integer.MAX_VALUE, t / 1000);
            latMs[i] = t / 1e6;
        }
        long wall = System.nanoTime() - wallStart;
        HistogramSnapshot snap = timer.takeSnapshot();
        Round r = new Round();
        r.index = index;
        r.discarded = discarded;
        r.requests = roundSize;
        r.errors = errors;
        r.minMs = min / 1e6;
        r.maxMs = snap.max(TimeUnit.MILLISECONDS);
        r.avgMs = snap.mean(TimeUnit.MILLISECONDS);
        for (ValueAtPercentile v : snap.percentileValues()) {
            if (Math.abs(v.percentile() - 0.95) < 1e-9) {
                r.p95Ms = v.value(TimeUnit.MILLISECONDS);
            } else if (Math.abs(v.percentile() - 0.99) < 1e-9) {
                r.p99Ms = v.value(TimeUnit.MILLISECONDS);
            }
        }
        r.p50ExactMs = Stats.quantile(latMs, 0.50);
        r.p95ExactMs = Stats.quantile(latMs, 0.95);
        r.p99ExactMs = Stats.quantile(latMs, 0.99);
        r.totalMs = snap.total(TimeUnit.MILLISECONDS);
        r.qps = r.totalMs > 0 ? roundSize / (r.totalMs / 1000) : 0;
        r.wallMs = wall / 1e6;
        r.latenciesUs = latenciesUs;
        registry.close();
        return r;
    }
}
