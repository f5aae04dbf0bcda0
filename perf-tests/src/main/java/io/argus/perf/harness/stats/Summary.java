package io.argus.perf.harness.stats;

import java.util.Arrays;

/**
 * Mean with the 95% confidence interval of the mean, quartiles, standard deviation and range of
 * one sample, as MooBench reports them (after Georges et al.). Public fields: it is written to JSON.
 */
public final class Summary {
    public long n;
    public double mean;
    /** Half-width of the 95% confidence interval of the mean (Student's t, n - 1 degrees of freedom). */
    public double ci95;
    public double sd;
    public double q1;
    public double median;
    public double q3;
    public double min;
    public double max;

    public Summary() {
    }

    /** The summary of {@code x}, which is not modified. */
    public static Summary of(double[] x) {
        if (x.length == 0) {
            throw new IllegalArgumentException("no values");
        }
        Summary s = new Summary();
        double[] sorted = x.clone();
        Arrays.sort(sorted);
        s.n = x.length;
        s.mean = Stats.meanOf(x);
        s.sd = Math.sqrt(Stats.varianceOf(x));
        s.ci95 = Stats.ciHalfWidth(s.sd, x.length, 0.95);
        s.q1 = Stats.quantileSorted(sorted, 0.25);
        s.median = Stats.quantileSorted(sorted, 0.5);
        s.q3 = Stats.quantileSorted(sorted, 0.75);
        s.min = sorted[0];
        s.max = sorted[sorted.length - 1];
        return s;
    }
}
