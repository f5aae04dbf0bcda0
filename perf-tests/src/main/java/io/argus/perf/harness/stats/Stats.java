package io.argus.perf.harness.stats;

import org.apache.commons.math3.distribution.BinomialDistribution;
import org.apache.commons.math3.distribution.TDistribution;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Descriptive statistics for small samples (a handful of launches, ten or twenty rounds).
 * Every method copies its input; none of them changes the caller's array.
 */
public final class Stats {

    private Stats() {
    }

    public static double mean(double[] x) {
        requireSamples(x, 1);
        return meanOf(x);
    }

    /** Sample variance (n - 1 in the denominator); 0 for a single value. */
    public static double variance(double[] x) {
        requireSamples(x, 1);
        return varianceOf(x);
    }

    public static double mean(long[] x, int from, int to) {
        double sum = 0;
        for (int i = from; i < to; i++) {
            sum += x[i];
        }
        return sum / (to - from);
    }

    /** Unchecked: NaN for no values. */
    static double meanOf(double[] x) {
        double sum = 0;
        for (double v : x) {
            sum += v;
        }
        return sum / x.length;
    }

    /** Unchecked, two-pass: 0 for fewer than two values. */
    static double varianceOf(double[] x) {
        if (x.length < 2) {
            return 0;
        }
        double m = meanOf(x);
        double sum = 0;
        for (double v : x) {
            sum += (v - m) * (v - m);
        }
        return sum / (x.length - 1);
    }

    public static double stdDev(double[] x) {
        return Math.sqrt(variance(x));
    }

    public static double median(double[] x) {
        return quantile(x, 0.5);
    }

    /**
     * The p-quantile by linear interpolation between order statistics (Hyndman and Fan type 7,
     * the default of R and NumPy): h = (n - 1) p, Q = x[floor h] + (h - floor h)(x[floor h + 1] - x[floor h]).
     */
    public static double quantile(double[] x, double p) {
        requireSamples(x, 1);
        if (p < 0 || p > 1 || Double.isNaN(p)) {
            throw new IllegalArgumentException("p must be in [0, 1]: " + p);
        }
        return quantileSorted(sorted(x), p);
    }

    static double quantileSorted(double[] sorted, double p) {
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

    /** Half-width of the confidence interval of the mean: t(1 - (1 - level) / 2, n - 1) * sd / sqrt(n); 0 when n < 2. */
    public static double ciHalfWidth(double sd, long n, double level) {
        if (n < 2) {
            return 0;
        }
        double t = new TDistribution(n - 1).inverseCumulativeProbability(1 - (1 - level) / 2);
        return t * sd / Math.sqrt(n);
    }

    /** {@link #ciHalfWidth} of the mean of {@code x}; 0 for fewer than two values. */
    public static double meanCiHalfWidth(double[] x, double level) {
        return ciHalfWidth(Math.sqrt(varianceOf(x)), x.length, level);
    }

    /**
     * The difference of two independent means with the half-width of its interval, combined
     * from the two intervals as sqrt(a² + b²) (normal approximation, large samples).
     */
    public static double[] meanDifference(double meanA, double ciA, double meanB, double ciB) {
        return new double[] {meanA - meanB, Math.sqrt(ciA * ciA + ciB * ciB)};
    }

    /**
     * A distribution-free confidence interval for the median from order statistics: the
     * narrowest symmetric pair (x(k), x(n+1-k)) (1-based) whose coverage
     * 1 - 2 P(B &lt; k), B ~ Binomial(n, 1/2), is at least {@code confidence}. For n = 10 at 95%
     * this is (x(2), x(9)) with coverage 1 - 2 * 11/1024 = 0.9785. When n is too small to reach the
     * confidence (n &lt; 6 at 95%) the interval is the full range and its true coverage,
     * 1 - 2^(1-n), is reported instead.
     */
    public static Interval medianConfidenceInterval(double[] x, double confidence) {
        requireSamples(x, 1);
        double[] s = sorted(x);
        int n = s.length;
        double median = median(s);
        if (n == 1) {
            return new Interval(median, s[0], s[0], 0);
        }
        BinomialDistribution b = new BinomialDistribution(null, n, 0.5);
        int best = 1;
        // coverage of (x(k), x(n+1-k)) = P(k <= B <= n-k) = 1 - 2 P(B <= k-1)
        for (int k = 1; k <= n / 2; k++) {
            double coverage = 1 - 2 * b.cumulativeProbability(k - 1);
            if (coverage >= confidence) {
                best = k;
            } else {
                break;
            }
        }
        double coverage = 1 - 2 * b.cumulativeProbability(best - 1);
        return new Interval(median, s[best - 1], s[n - best], coverage);
    }

    /**
     * Cohen's d: (mean(x) - mean(y)) / pooled standard deviation, the pooled variance being
     * ((nx - 1) sx² + (ny - 1) sy²) / (nx + ny - 2). Positive when x is larger. 0 when both samples
     * are constant and equal; ±infinity when they are constant and differ.
     */
    public static double cohensD(double[] x, double[] y) {
        requireSamples(x, 1);
        requireSamples(y, 1);
        double diff = mean(x) - mean(y);
        int dof = x.length + y.length - 2;
        if (dof <= 0) {
            return diff == 0 ? 0 : Math.copySign(Double.POSITIVE_INFINITY, diff);
        }
        double pooled = Math.sqrt(((x.length - 1) * variance(x) + (y.length - 1) * variance(y)) / dof);
        if (pooled == 0) {
            return diff == 0 ? 0 : Math.copySign(Double.POSITIVE_INFINITY, diff);
        }
        return diff / pooled;
    }

    /**
     * Tukey's fences: the 0-based indices of the values below Q1 - k IQR or above Q3 + k IQR,
     * quartiles as in {@link #quantile} (type 7). k = 1.5 flags outliers, 3 "far out" values.
     */
    public static List<Integer> tukeyOutliers(double[] x, double k) {
        List<Integer> out = new ArrayList<>();
        if (x.length < 4) {
            return out;
        }
        double q1 = quantile(x, 0.25);
        double q3 = quantile(x, 0.75);
        double iqr = q3 - q1;
        double low = q1 - k * iqr;
        double high = q3 + k * iqr;
        for (int i = 0; i < x.length; i++) {
            if (x[i] < low || x[i] > high) {
                out.add(i);
            }
        }
        return out;
    }

    static double[] sorted(double[] x) {
        double[] s = x.clone();
        Arrays.sort(s);
        return s;
    }

    private static void requireSamples(double[] x, int min) {
        if (x == null || x.length < min) {
            throw new IllegalArgumentException("need at least " + min + " sample(s)");
        }
        for (double v : x) {
            if (Double.isNaN(v)) {
                throw new IllegalArgumentException("NaN in sample");
            }
        }
    }

    /** A point estimate with a confidence interval and that interval's actual coverage. */
    public record Interval(double estimate, double low, double high, double coverage) {
    }
}
