package io.argus.perf.moobench;

import io.argus.perf.harness.stats.Stats;
import io.argus.perf.harness.stats.Summary;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Turns one run's raw timings into its figures, and pools the measured halves of a
 * configuration's runs. MooBench's rules: the first half of the calls is warm-up and thrown away;
 * the time series is the mean of each of {@code bins} consecutive bins of calls; throughput
 * (traces per second) is counted per bin.
 */
public final class RunAnalysis {

    static final long ONE_MS = 1_000_000;
    /** The share of slowest calls the trimmed mean leaves out: 0.1%. */
    public static final double TRIM = 0.001;

    private RunAnalysis() {
    }

    public static long[] read(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = channel.size();
            if (size % 8 != 0 || size == 0) {
                throw new IOException(file + " has " + size + " bytes: not a list of longs");
            }
            long[] out = new long[(int) (size / 8)];
            ByteBuffer buffer = ByteBuffer.allocate(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
            int n = 0;
            while (channel.read(buffer) > 0 || buffer.position() > 0) {
                buffer.flip();
                while (buffer.remaining() >= 8) {
                    out[n++] = buffer.getLong();
                }
                buffer.compact();
                if (n == out.length) {
                    break;
                }
            }
            if (n != out.length) {
                throw new IOException(file + ": read " + n + " of " + out.length + " values");
            }
            return out;
        }
    }

    /** Index of the first measured call: the first half is warm-up. */
    static int steadyStart(int calls) {
        return calls / 2;
    }

    /** Start index of bin {@code k} of {@code bins} over {@code calls} calls; bin k ends where k + 1 starts. */
    static int binStart(int k, int bins, int calls) {
        return (int) ((long) k * calls / bins);
    }

    /** Fills the run's figures from its timings and adds its measured half to {@code pool}. */
    public static void analyze(long[] times, int bins, MooResults.RunResult run, Pool pool) {
        int calls = times.length;
        int nBins = Math.max(1, Math.min(bins, calls));
        int steady = steadyStart(calls);
        run.calls = calls;
        run.binMeansNs = new double[nBins];
        run.binThroughput = new double[nBins];
        for (int k = 0; k < nBins; k++) {
            int from = binStart(k, nBins, calls);
            int to = binStart(k + 1, nBins, calls);
            double sum = 0;
            for (int i = from; i < to; i++) {
                sum += times[i];
            }
            double mean = sum / (to - from);
            run.binMeansNs[k] = mean;
            run.binThroughput[k] = sum <= 0 ? 0 : (to - from) * 1e9 / sum;
            if (from >= steady && pool != null) {
                pool.binMeans.add(mean);
                pool.binThroughputs.add(run.binThroughput[k]);
            }
        }
        long[] measured = Arrays.copyOfRange(times, steady, calls);
        run.meanNs = Stats.mean(measured, 0, measured.length);
        run.warmupMeanNs = steady == 0 ? run.meanNs : Stats.mean(times, 0, steady);
        Arrays.sort(measured);
        run.q1Ns = Stats.quantileSorted(measured, 0.25);
        run.medianNs = Stats.quantileSorted(measured, 0.5);
        run.q3Ns = Stats.quantileSorted(measured, 0.75);
        run.p99Ns = Stats.quantileSorted(measured, 0.99);
        run.maxNs = measured[measured.length - 1];
        int keep = measured.length - (int) Math.floor(measured.length * TRIM);
        run.trimmedMeanNs = Stats.mean(measured, 0, keep);
        int over = 0;
        for (int i = measured.length - 1; i >= 0 && measured[i] >= ONE_MS; i--) {
            over++;
        }
        run.over1ms = over;
        if (pool != null) {
            pool.histogram.addAll(times, steady, calls);
            pool.runMeans.add(run.meanNs);
            pool.runMedians.add(run.medianNs);
        }
    }

    /** The measured halves of one configuration's runs. */
    public static final class Pool {
        final NanosHistogram histogram = new NanosHistogram();
        final List<Double> binMeans = new ArrayList<>();
        final List<Double> binThroughputs = new ArrayList<>();
        final List<Double> runMeans = new ArrayList<>();
        final List<Double> runMedians = new ArrayList<>();

        public boolean isEmpty() {
            return histogram.count() == 0;
        }

        /** Sets the configuration's pooled throughput and response-time figures. */
        public void finish(MooResults.ConfigResult config) {
            if (isEmpty()) {
                return;
            }
            config.throughput = Summary.of(toArray(binThroughputs));
            MooResults.ResponseTimes r = new MooResults.ResponseTimes();
            double[] means = toArray(binMeans);
            r.calls = histogram.count();
            r.mean = histogram.mean();
            r.trimmedMean = histogram.trimmedMean(TRIM);
            r.ci95 = Stats.meanCiHalfWidth(means, 0.95);
            r.q1 = histogram.quantile(0.25);
            r.median = histogram.quantile(0.5);
            r.q3 = histogram.quantile(0.75);
            r.p99 = histogram.quantile(0.99);
            r.max = histogram.quantile(1);
            r.over1ms = histogram.countAtLeast(ONE_MS);
            r.runMeanMin = runMeans.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
            r.runMeanMax = runMeans.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
            r.runMedianMin = runMedians.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
            r.runMedianMax = runMedians.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
            config.response = r;
        }

        private static double[] toArray(List<Double> values) {
            double[] out = new double[values.size()];
            for (int i = 0; i < out.length; i++) {
                out[i] = values.get(i);
            }
            return out;
        }
    }
}
