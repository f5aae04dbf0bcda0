package io.argus.perf.harness.stats;

import org.apache.commons.math3.distribution.NormalDistribution;

import java.util.Arrays;

/**
 * The Wilcoxon rank-sum / Mann-Whitney U test for two independent samples, two-sided.
 *
 * <p>Without ties and with both samples of at most {@value #EXACT_LIMIT} values, the p-value is
 * exact: the null distribution of U is counted with the recurrence
 * f(m, n, u) = f(m - 1, n, u - n) + f(m, n - 1, u). Otherwise it is the normal approximation with
 * the tie correction of the variance and a continuity correction of 1/2. This is what R's
 * {@code wilcox.test(x, y)} does, so its published examples serve as test values.
 *
 * <p>The samples are independent here (separate JVMs per scenario), which is why this is the
 * rank-sum test and not the signed-rank test for paired data.
 */
public final class MannWhitney {

    static final int EXACT_LIMIT = 50;

    private MannWhitney() {
    }

    /**
     * @return U for x (the number of pairs with x &gt; y, ties counting 1/2; R calls it W),
     *         the two-sided p-value and the method used
     */
    public static Result test(double[] x, double[] y) {
        if (x.length == 0 || y.length == 0) {
            throw new IllegalArgumentException("both samples need at least one value");
        }
        int nx = x.length;
        int ny = y.length;
        int n = nx + ny;
        double[] all = new double[n];
        System.arraycopy(x, 0, all, 0, nx);
        System.arraycopy(y, 0, all, nx, ny);
        double[] ranks = ranks(all);
        double rankSumX = 0;
        for (int i = 0; i < nx; i++) {
            rankSumX += ranks[i];
        }
        double u = rankSumX - nx * (nx + 1) / 2.0;
        double tieTerm = tieTerm(all);
        boolean ties = tieTerm > 0;

        if (!ties && nx <= EXACT_LIMIT && ny <= EXACT_LIMIT) {
            double[] dist = exactDistribution(nx, ny);
            double total = 0;
            for (double c : dist) {
                total += c;
            }
            int uu = (int) Math.round(u);
            double lower = 0;
            for (int k = 0; k <= uu; k++) {
                lower += dist[k];
            }
            double upper = 0;
            for (int k = uu; k < dist.length; k++) {
                upper += dist[k];
            }
            double p = Math.min(1, 2 * Math.min(lower, upper) / total);
            return new Result(u, p, "exact");
        }

        double mean = nx * (double) ny / 2;
        double variance = nx * (double) ny / 12 * ((n + 1) - tieTerm / (n * (double) (n - 1)));
        if (variance <= 0) {
            return new Result(u, 1, "normal");
        }
        double diff = u - mean;
        double correction = Math.signum(diff) * 0.5;
        double z = (diff - correction) / Math.sqrt(variance);
        double p = 2 * new NormalDistribution(null, 0, 1).cumulativeProbability(-Math.abs(z));
        return new Result(u, Math.min(1, p), "normal");
    }

    /** Mid-ranks (1-based), ties sharing the mean of their ranks. */
    static double[] ranks(double[] values) {
        int n = values.length;
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Double.compare(values[a], values[b]));
        double[] ranks = new double[n];
        int i = 0;
        while (i < n) {
            int j = i;
            while (j + 1 < n && values[order[j + 1]] == values[order[i]]) {
                j++;
            }
            double rank = (i + j) / 2.0 + 1;
            for (int k = i; k <= j; k++) {
                ranks[order[k]] = rank;
            }
            i = j + 1;
        }
        return ranks;
    }

    /** Σ (t³ - t) over groups of tied values. */
    static double tieTerm(double[] values) {
        double[] s = values.clone();
        Arrays.sort(s);
        double sum = 0;
        int i = 0;
        while (i < s.length) {
            int j = i;
            while (j + 1 < s.length && s[j + 1] == s[i]) {
                j++;
            }
            double t = j - i + 1;
            sum += t * t * t - t;
            i = j + 1;
        }
        return sum;
    }

    /** Counts of each U = 0..m·n over all C(m+n, m) arrangements (as doubles: they get big). */
    static double[] exactDistribution(int m, int n) {
        // f[j][u] for the current m' = i, j = 0..n
        double[][] prev = new double[n + 1][];
        for (int j = 0; j <= n; j++) {
            prev[j] = new double[]{1}; // m' = 0: only U = 0
        }
        for (int i = 1; i <= m; i++) {
            double[][] cur = new double[n + 1][];
            cur[0] = new double[]{1}; // n' = 0: only U = 0
            for (int j = 1; j <= n; j++) {
                double[] f = new double[i * j + 1];
                // the largest value belongs to x: every y is below it, U gains j
                double[] a = prev[j];
                for (int u = 0; u < a.length; u++) {
                    f[u + j] += a[u];
                }
                // the largest value belongs to y: U unchanged
                double[] b = cur[j - 1];
                for (int u = 0; u < b.length; u++) {
                    f[u] += b[u];
                }
                cur[j] = f;
            }
            prev = cur;
        }
        return prev[n];
    }

    public record Result(double u, double pValue, String method) {
    }
}
