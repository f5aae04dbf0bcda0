package io.argus.perf.moobench;

import org.apache.commons.math3.distribution.TDistribution;

import java.util.Arrays;

/**
 * The statistics of the benchmark's analysis, as MooBench reports them (after Georges et al.):
 * mean with the 95% confidence interval of the mean, lower quartile, median and upper quartile;
 * plus the least-squares line used for the recursion-depth check. Inputs are never modified.
 */
public final class MooStats {

    private MooStats() {
    }

    /** mean, 95% CI half-width, Q1, median, Q3, standard deviation and n of one sample. */
    public static final class Summary {
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
    }

    public static Summary summarize(double[] x) {
        if (x.length == 0) {
            throw new IllegalArgumentException("no values");
        }
        Summary s = new Summary();
        double[] sorted = x.clone();
        Arrays.sort(sorted);
        s.n = x.length;
        s.mean = mean(x);
        s.sd = Math.sqrt(variance(x));
        s.ci95 = ciHalfWidth(s.sd, x.length, 0.95);
        s.q1 = quantileSorted(sorted, 0.25);
        s.median = quantileSorted(sorted, 0.5);
        s.q3 = quantileSorted(sorted, 0.75);
        s.min = sorted[0];
        s.max = sorted[sorted.length - 1];
        return s;
    }

    public static double mean(double[] x) {
        double sum = 0;
        for (double v : x) {
            sum += v;
        }
        return sum / x.length;
    }

    public static double mean(long[] x, int from, int to) {
        double sum = 0;
        for (int i = from; i < to; i++) {
            sum += x[i];
        }
        return sum / (to - from);
    }

    /** Sample variance (n - 1); 0 for one value. Two-pass, for accuracy. */
    public static double variance(double[] x) {
        if (x.length < 2) {
            return 0;
        }
        double m = mean(x);
        double sum = 0;
        for (double v : x) {
            sum += (v - m) * (v - m);
        }
        return sum / (x.length - 1);
    }

    /** t(1 - (1 - level) / 2, n - 1) * sd / sqrt(n); 0 when n < 2. */
    public static double ciHalfWidth(double sd, long n, double level) {
        if (n < 2) {
            return 0;
        }
        double t = new TDistribution(n - 1).inverseCumulativeProbability(1 - (1 - level) / 2);
        return t * sd / Math.sqrt(n);
    }

    /** Hyndman and Fan type 7 (R's default): h = (n - 1) p, linear between the neighbouring order statistics. */
    public static double quantile(double[] x, double p) {
        double[] sorted = x.clone();
        Arrays.sort(sorted);
        return quantileSorted(sorted, p);
    }

    static double quantileSorted(double[] sorted, double p) {
        if (sorted.length == 0 || p < 0 || p > 1) {
            throw new IllegalArgumentException("quantile " + p + " of " + sorted.length + " values");
        }
        double h = (sorted.length - 1) * p;
        int lo = (int) Math.floor(h);
        int hi = Math.min(lo + 1, sorted.length - 1);
        return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
    }

    /** Type-7 quantile of a sorted long array. */
    public static double quantileSorted(long[] sorted, double p) {
        if (sorted.length == 0 || p < 0 || p > 1) {
            throw new IllegalArgumentException("quantile " + p + " of " + sorted.length + " values");
        }
        double h = (sorted.length - 1) * p;
        int lo = (int) Math.floor(h);
        int hi = Math.min(lo + 1, sorted.length - 1);
        return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
    }

    /** Least-squares line y = intercept + slope x, with R² (1 - SSres / SStot). */
    public static final class Fit {
        public double slope;
        public double intercept;
        public double r2;
        public int n;

        public Fit() {
        }

        public double at(double x) {
            return intercept + slope * x;
        }
    }

    public static Fit linearFit(double[] x, double[] y) {
        if (x.length != y.length || x.length < 2) {
            throw new IllegalArgumentException("need two or more (x, y) pairs");
        }
        double mx = mean(x);
        double my = mean(y);
        double sxx = 0;
        double sxy = 0;
        double syy = 0;
        for (int i = 0; i < x.length; i++) {
            sxx += (x[i] - mx) * (x[i] - mx);
            sxy += (x[i] - mx) * (y[i] - my);
            syy += (y[i] - my) * (y[i] - my);
        }
        if (sxx == 0) {
            throw new IllegalArgumentException("all x are equal");
        }
        Fit f = new Fit();
        f.n = x.length;
        f.slope = sxy / sxx;
        f.intercept = my - f.slope * mx;
        double ssRes = 0;
        for (int i = 0; i < x.length; i++) {
            double r = y[i] - f.at(x[i]);
            ssRes += r * r;
        }
        f.r2 = syy == 0 ? 1 : 1 - ssRes / syy;
        return f;
    }

    /**
     * The difference of two independent means with the half-width of its 95% interval, combined
     * from the two intervals as sqrt(a² + b²) (normal approximation, large samples).
     */
    public static double[] difference(double meanA, double ciA, double meanB, double ciB) {
        return new double[] {meanA - meanB, Math.sqrt(ciA * ciA + ciB * ciB)};
    }
}
