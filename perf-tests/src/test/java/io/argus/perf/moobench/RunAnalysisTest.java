package io.argus.perf.moobench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class RunAnalysisTest {

    /** 2,000 calls: a slow warm-up half, then 100 ns per call with one 2 ms outlier. */
    static long[] run(long steady, long outlier) {
        long[] t = new long[2000];
        for (int i = 0; i < t.length; i++) {
            t[i] = i < 1000 ? 1000 : steady;
        }
        t[1500] = outlier;
        return t;
    }

    @Test
    void binsThroughputAndTheMeasuredHalf() {
        MooResults.RunResult r = new MooResults.RunResult();
        RunAnalysis.Pool pool = new RunAnalysis.Pool();
        RunAnalysis.analyze(run(100, 2_000_000), 20, r, pool);
        assertThat(r.calls).isEqualTo(2000);
        assertThat(r.binMeansNs).hasSize(20);
        assertThat(r.binMeansNs[0]).isEqualTo(1000);
        assertThat(r.binThroughput[0]).isCloseTo(1e6, within(1e-6));
        assertThat(r.binMeansNs[12]).isEqualTo(100);
        assertThat(r.binThroughput[12]).isCloseTo(1e7, within(1e-3));
        // bin 15 holds the outlier: (99 * 100 + 2,000,000) / 100
        assertThat(r.binMeansNs[15]).isCloseTo((99 * 100 + 2_000_000) / 100.0, within(1e-9));
        assertThat(r.meanNs).isCloseTo((999 * 100 + 2_000_000) / 1000.0, within(1e-9));
        assertThat(r.medianNs).isEqualTo(100);
        assertThat(r.q1Ns).isEqualTo(100);
        assertThat(r.q3Ns).isEqualTo(100);
        assertThat(r.maxNs).isEqualTo(2_000_000);
        assertThat(r.over1ms).isEqualTo(1);
        assertThat(r.trimmedMeanNs).isEqualTo(100);
        assertThat(r.warmupMeanNs).isEqualTo(1000);

        MooResults.ConfigResult c = new MooResults.ConfigResult();
        pool.finish(c);
        // only the 10 bins of the measured half are throughput samples
        assertThat(c.throughput.n).isEqualTo(10);
        assertThat(c.throughput.median).isCloseTo(1e7, within(1e-3));
        assertThat(c.response.calls).isEqualTo(1000);
        assertThat(c.response.mean).isCloseTo(r.meanNs, within(1e-9));
        assertThat(c.response.median).isEqualTo(100);
        assertThat(c.response.trimmedMean).isEqualTo(100);
        assertThat(c.response.over1ms).isEqualTo(1);
        assertThat(c.response.runMeanMin).isEqualTo(r.meanNs);
    }

    @Test
    void poolsSeveralRuns() {
        RunAnalysis.Pool pool = new RunAnalysis.Pool();
        MooResults.RunResult a = new MooResults.RunResult();
        MooResults.RunResult b = new MooResults.RunResult();
        RunAnalysis.analyze(run(100, 100), 10, a, pool);
        RunAnalysis.analyze(run(300, 300), 10, b, pool);
        MooResults.ConfigResult c = new MooResults.ConfigResult();
        pool.finish(c);
        assertThat(c.response.calls).isEqualTo(2000);
        assertThat(c.response.mean).isCloseTo(200, within(1e-9));
        assertThat(c.response.runMeanMin).isEqualTo(100);
        assertThat(c.response.runMeanMax).isEqualTo(300);
        assertThat(c.response.q1).isEqualTo(100);
        assertThat(c.response.q3).isEqualTo(300);
        assertThat(c.throughput.n).isEqualTo(10);
        assertThat(c.throughput.mean).isCloseTo((1e7 + 1e9 / 300) / 2, within(1e-3));
        assertThat(c.response.ci95).isPositive();
    }

    @Test
    void unevenBinsCoverEveryCall() {
        long[] t = new long[1001];
        java.util.Arrays.fill(t, 10);
        MooResults.RunResult r = new MooResults.RunResult();
        RunAnalysis.analyze(t, 1000, r, null);
        assertThat(r.binMeansNs).hasSize(1000).containsOnly(10.0);
        MooResults.RunResult small = new MooResults.RunResult();
        RunAnalysis.analyze(new long[] {5, 7}, 1000, small, null);
        assertThat(small.binMeansNs).containsExactly(5.0, 7.0);
        assertThat(small.meanNs).isEqualTo(7);
    }

    @Test
    void readsTheLittleEndianFileMonitoredAppWrites(@TempDir Path dir) throws Exception {
        ByteBuffer b = ByteBuffer.allocate(3 * 8).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(1).putLong(Long.MAX_VALUE).putLong(300);
        Path f = dir.resolve("run.bin");
        Files.write(f, b.array());
        assertThat(RunAnalysis.read(f)).containsExactly(1, Long.MAX_VALUE, 300);
    }

    @Test
    void overheadsPerInstrumentedCall() {
        List<MooResults.ConfigResult> configs = List.of(config("T", 10, 70, 70, 2), config("T+I", 10, 80, 80, 2),
                config("T+I+C", 10, 680, 670, 3), config("T+I+C+W", 10, 700, 680, 4), config("otel-off", 10, 1570, 1500, 6));
        Map<String, Overheads.PerCall> portions = Overheads.portions(configs);
        assertThat(portions).containsOnlyKeys("I", "C", "W");
        assertThat(portions.get("I").meanNs).isCloseTo(1, within(1e-12));
        assertThat(portions.get("C").meanNs).isCloseTo(60, within(1e-12));
        assertThat(portions.get("C").medianNs).isCloseTo(59, within(1e-12));
        assertThat(portions.get("C").ci95).isCloseTo(Math.sqrt(9 + 4) / 10, within(1e-12));
        assertThat(portions.get("W").meanNs).isCloseTo(2, within(1e-12));
        Map<String, Overheads.PerCall> vsT = Overheads.versusT(configs);
        assertThat(vsT).containsOnlyKeys("T+I", "T+I+C", "T+I+C+W", "otel-off");
        assertThat(vsT.get("otel-off").meanNs).isCloseTo(150, within(1e-12));
        assertThat(vsT.get("T+I+C+W").meanNs).isCloseTo(63, within(1e-12));
        assertThat(Overheads.versusT(configs.subList(1, 3))).isEmpty();
    }

    @Test
    void depthCurvesAreFittedAgainstTAtTheSameDepth() {
        List<MooResults.ConfigResult> series = new java.util.ArrayList<>();
        for (int d : new int[] {1, 2, 4, 8}) {
            series.add(config("T", d, 70, 70, 1));
            series.add(config("T+I+C", d, 70 + 60.0 * d, 70 + 60 * d, 1));
        }
        List<Overheads.DepthCurve> curves = Overheads.depthCurves(series);
        assertThat(curves).hasSize(1);
        Overheads.DepthCurve c = curves.get(0);
        assertThat(c.config).isEqualTo("T+I+C");
        assertThat(c.depths).containsExactly(1, 2, 4, 8);
        assertThat(c.overheadNs).containsExactly(60.0, 120.0, 240.0, 480.0);
        assertThat(c.fit.slope).isCloseTo(60, within(1e-9));
        assertThat(c.fit.intercept).isCloseTo(0, within(1e-9));
        assertThat(c.fit.r2).isCloseTo(1, within(1e-12));
        assertThat(c.medianFit.slope).isCloseTo(60, within(1e-9));
    }

    static MooResults.ConfigResult config(String name, int depth, double mean, double median, double ci) {
        MooResults.ConfigResult c = new MooResults.ConfigResult();
        c.name = name;
        c.depth = depth;
        c.response = new MooResults.ResponseTimes();
        c.response.mean = mean;
        c.response.trimmedMean = mean;
        c.response.median = median;
        c.response.ci95 = ci;
        return c;
    }
}
