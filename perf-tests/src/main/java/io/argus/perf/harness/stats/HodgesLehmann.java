package io.argus.perf.harness.stats;

import org.apache.commons.math3.distribution.NormalDistribution;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Hodges-Lehmann estimate of the shift between two independent samples, x - y, and its
 * distribution-free confidence interval (Bauer 1972; Hollander and Wolfe): the median of the m·n
 * pairwise differences x_i - y_j, and the pair of order statistics (d(k), d(mn + 1 - k)) of those
 * differences whose coverage comes from the null distribution of the Mann-Whitney U, the test
 * {@link MannWhitney} runs. k is the smallest u with P(U &lt;= u) &gt;= (1 - confidence) / 2, exact
 * up to {@value MannWhitney#EXACT_LIMIT} values per sample, otherwise from the normal
 * approximation with a continuity correction. This is R's {@code wilcox.test(x, y, conf.int = TRUE)}
 * in its exact case, so R's output serves as test values.
 *
 * <p>On log values the shift is a log ratio: {@link #ratio} gives the typical ratio x / y (the
 * median of the pairwise ratios) and its interval, the scale a verdict like "QPS at least ×0.99"
 * needs. When the samples are too small for the confidence asked (two against two at 95%), the
 * interval is unbounded: nothing at that level can be said.
 */
public final class HodgesLehmann {

    private HodgesLehmann() {
    }

    /**
     * @param estimate median of the pairwise differences (or ratios)
     * @param low      lower end; -infinity (or 0 for a ratio) when the samples are too small
     * @param high     upper end; +infinity when the samples are too small
     * @param coverage the interval's actual coverage (at least the confidence asked when bounded; for an
     *                 unbounded interval, what the full range of the differences would have covered)
     */
    public record Interval(double estimate, double low, double high, double coverage) {
        /** False when the samples are too small for the confidence asked. */
        public boolean bounded() {
            return Double.isFinite(low) && Double.isFinite(high);
        }
    }

    /** The shift x - y with its interval at {@code confidence} (e.g. 0.95). */
    public static Interval shift(double[] x, double[] y, double confidence) {
        check(x);
        check(y);
        if (confidence <= 0 || confidence >= 1) {
            throw new IllegalArgumentException("confidence must be in (0, 1): " + confidence);
        }
        int m = x.length;
        int n = y.length;
        double[] d = new double[m * n];
        int i = 0;
        for (double a : x) {
            for (double b : y) {
                d[i++] = a - b;
            }
        }
        Arrays.sort(d);
        double estimate = Stats.quantileSorted(d, 0.5);
        double alpha = 1 - confidence;
        int k = criticalIndex(m, n, alpha / 2);
        if (k < 1) {
            // not even the full range reaches the confidence asked
            return new Interval(estimate, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, coverage(m, n, 1));
        }
        return new Interval(estimate, d[k - 1], d[m * n - k], coverage(m, n, k));
    }

    /** The ratio x / y as exp of the shift of the logs; every value must be positive. */
    public static Interval ratio(double[] x, double[] y, double confidence) {
        Interval s = shift(logs(x), logs(y), confidence);
        return new Interval(Math.exp(s.estimate()), Math.exp(s.low()), Math.exp(s.high()), s.coverage());
    }

    /**
     * The 1-based index k of the lower end: the largest k with P(U &lt;= k - 1) &lt; p, which is R's
     * {@code qwilcox(p, m, n)} (the smallest u with P(U &lt;= u) &gt;= p); 0 when already P(U = 0) &gt;= p.
     */
    static int criticalIndex(int m, int n, double p) {
        if (exact(m, n)) {
            double[] cdf = exactCdf(m, n);
            int k = 0;
            while (k < cdf.length && cdf[k] < p * (1 - 1e-12)) {
                k++;
            }
            return k;
        }
        double mean = m * (double) n / 2;
        double sd = Math.sqrt(m * (double) n * (m + n + 1) / 12);
        double z = new NormalDistribution(null, 0, 1).inverseCumulativeProbability(p);
        // P(U <= u) ≈ Φ((u + 1/2 - mean) / sd) < p  <=>  u < mean - 1/2 + z sd
        return Math.max(0, (int) Math.ceil(mean - 0.5 + z * sd));
    }

    /** Coverage of (d(k), d(mn + 1 - k)): 1 - 2 P(U &lt;= k - 1). */
    static double coverage(int m, int n, int k) {
        if (exact(m, n)) {
            return k < 1 ? 1 : Math.max(0, 1 - 2 * exactCdf(m, n)[k - 1]);
        }
        double mean = m * (double) n / 2;
        double sd = Math.sqrt(m * (double) n * (m + n + 1) / 12);
        double below = new NormalDistribution(null, 0, 1).cumulativeProbability((k - 1 + 0.5 - mean) / sd);
        return Math.max(0, 1 - 2 * below);
    }

    private static boolean exact(int m, int n) {
        return m <= MannWhitney.EXACT_LIMIT && n <= MannWhitney.EXACT_LIMIT;
    }

    private static final Map<Integer, double[]> CDFS = new ConcurrentHashMap<>();

    /** P(U &lt;= u) for u = 0..mn, computed once per pair of sample sizes. */
    private static double[] exactCdf(int m, int n) {
        return CDFS.computeIfAbsent(m * 1000 + n, key -> {
            double[] dist = MannWhitney.exactDistribution(m, n);
            double total = 0;
            for (double c : dist) {
                total += c;
            }
            double[] cdf = new double[dist.length];
            double cumulative = 0;
            for (int u = 0; u < dist.length; u++) {
                cumulative += dist[u];
                cdf[u] = cumulative / total;
            }
            return cdf;
        });
    }

    /**
     * The smallest equal number of values per sample whose interval can be bounded at
     * {@code confidence} at all (4 against 4 at 95%): below it no data can decide anything.
     */
    public static int minimumPerSample(double confidence) {
        for (int n = 1; n <= MannWhitney.EXACT_LIMIT; n++) {
            if (criticalIndex(n, n, (1 - confidence) / 2) >= 1) {
                return n;
            }
        }
        return MannWhitney.EXACT_LIMIT;
    }

    static double[] logs(double[] x) {
        double[] out = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            if (!(x[i] > 0)) {
                throw new IllegalArgumentException("a ratio needs positive values, got " + x[i]);
            }
            out[i] = Math.log(x[i]);
        }
        return out;
    }

    private static void check(double[] x) {
        if (x == null || x.length == 0) {
            throw new IllegalArgumentException("both samples need at least one value");
        }
        for (double v : x) {
            if (!Double.isFinite(v)) {
                throw new IllegalArgumentException("non-finite value in sample: " + v);
            }
        }
    }
}
