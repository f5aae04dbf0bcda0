package io.argus.perf.load.stats;

import io.argus.perf.harness.stats.HodgesLehmann;
import io.argus.perf.harness.stats.Stats;
import org.apache.commons.math3.distribution.NormalDistribution;

/**
 * A verdict as a non-inferiority decision on a 95% confidence interval: PASS only when the whole
 * interval lies on the good side of the target, FAIL when it lies wholly on the bad side,
 * INCONCLUSIVE otherwise. A median that meets the target is not enough: with two rounds a side the
 * interval is unbounded, so nothing passes.
 *
 * <p>For an inconclusive verdict it estimates how many samples per side (launches or rounds) would
 * decide it: the n at which a run with the same estimate and spread would put the interval clear of
 * the target with 80% probability. On the scale of the interval (log values for a ratio) that is the
 * usual n = 2 ((z(0.975) + z(0.80)) c s / d)² per side for two samples, where s is the pooled
 * standard deviation, d the distance of the estimate from the target and c² = π / 3 the
 * Hodges-Lehmann estimator's variance relative to the mean's under a normal spread; for one sample
 * (a value with no baseline, its median's interval) n = ((z(0.975) + z(0.80)) c s / d)² with
 * c² = π / 2. It is never less than the smallest samples that can bound an interval at all (4 a side
 * for two samples, 6 for one) nor less than one more than there are.
 */
public final class NonInferiority {

    public static final String PASS = "PASS";
    public static final String FAIL = "FAIL";
    public static final String INCONCLUSIVE = "INCONCLUSIVE";

    private static final double Z = new NormalDistribution(null, 0, 1).inverseCumulativeProbability(0.975);
    private static final double Z_POWER = new NormalDistribution(null, 0, 1).inverseCumulativeProbability(0.80);

    private NonInferiority() {
    }

    /** The verdict on an interval [low, high] of the limited quantity (ratio, difference or value). */
    public static String decide(Anchors.Limit limit, double low, double high) {
        if (Double.isNaN(low) || Double.isNaN(high)) {
            return INCONCLUSIVE;
        }
        if (limit.atLeast()) {
            return low >= limit.value() ? PASS : high < limit.value() ? FAIL : INCONCLUSIVE;
        }
        return high <= limit.value() ? PASS : low > limit.value() ? FAIL : INCONCLUSIVE;
    }

    /**
     * Samples per side that would likely decide a comparison of two samples; null when the
     * estimate sits on the target (no number of samples can move the interval off it).
     *
     * @param x        the scenario's samples
     * @param y        the baseline's samples
     * @param estimate the interval's estimate, on the limit's scale (ratio, or difference)
     */
    public static Integer samplesToDecide(Anchors.Limit limit, double[] x, double[] y, double estimate) {
        boolean log = limit.onRatio();
        double[] a = log ? logs(x) : x;
        double[] b = log ? logs(y) : y;
        double target = log ? Math.log(limit.value()) : limit.value();
        double at = log ? Math.log(estimate) : estimate;
        int dof = a.length + b.length - 2;
        double pooled = dof <= 0 ? 0
                : Math.sqrt(((a.length - 1) * Stats.variance(a) + (b.length - 1) * Stats.variance(b)) / dof);
        double n = perSide(pooled, Math.abs(target - at), Math.PI / 3, 2);
        if (Double.isNaN(n)) {
            return null;
        }
        int minimum = HodgesLehmann.minimumPerSample(Analysis.CONFIDENCE);
        return (int) Math.max(Math.max(Math.ceil(n), minimum), Math.max(x.length, y.length) + 1);
    }

    /** Samples that would likely decide a value held to a target of its own (its median's interval). */
    public static Integer samplesToDecide(Anchors.Limit limit, double[] x, double median) {
        double sd = x.length < 2 ? 0 : Stats.stdDev(x);
        double n = perSide(sd, Math.abs(limit.value() - median), Math.PI / 2, 1);
        if (Double.isNaN(n)) {
            return null;
        }
        return (int) Math.max(Math.max(Math.ceil(n), minimumOneSample()), x.length + 1);
    }

    /** NaN when the distance is zero; 0 when there is no spread (only the minimum then applies). */
    private static double perSide(double sd, double distance, double relativeVariance, int samples) {
        if (!(distance > 0)) {
            return Double.NaN;
        }
        double k = (Z + Z_POWER) * Math.sqrt(relativeVariance) * sd / distance;
        return samples * k * k;
    }

    /** The smallest n whose order-statistic interval of the median reaches 95% (6). */
    static int minimumOneSample() {
        for (int n = 2; n < 100; n++) {
            double[] x = new double[n];
            for (int i = 0; i < n; i++) {
                x[i] = i;
            }
            if (Stats.medianConfidenceInterval(x, Analysis.CONFIDENCE).coverage() >= Analysis.CONFIDENCE) {
                return n;
            }
        }
        return 100;
    }

    private static double[] logs(double[] x) {
        double[] out = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            out[i] = Math.log(x[i]);
        }
        return out;
    }
}
