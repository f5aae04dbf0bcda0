package io.argus.perf.load.stats;

/**
 * Argus's targets from shared/anchors.md, as ratios to the baseline's median. They apply to the
 * Argus scenarios only; the peers are shown for reference.
 *
 * <ul>
 *   <li>startup delay: at most +10% (ratio &lt;= 1.10), on each process and on the sample service</li>
 *   <li>sampling 0% (and jvm-only, which does less): QPS at least 99% of baseline; P99 within 3%</li>
 *   <li>sampling 100%: QPS at least 98%, P99 within 5% (stated for the Druid SQL query, applied to
 *       any endpoint with real work); on a trivial endpoint (ping): QPS at least 90%</li>
 * </ul>
 */
public final class Anchors {

    private Anchors() {
    }

    /** A target on the ratio median / baseline median. */
    public record Limit(double ratio, boolean atLeast) {
        public boolean passes(double value) {
            return atLeast ? value >= ratio : value <= ratio;
        }

        public String describe() {
            return "ratio " + (atLeast ? ">= " : "<= ") + String.format(java.util.Locale.ROOT, "%.2f", ratio);
        }
    }

    /**
     * @param scenario an Argus scenario name (jvm-only, default-0, default-100); others have none
     * @param metric   startupMs, qps or p99Ms
     * @param endpoint the sample target's endpoint (ping is the "trivial endpoint" worst case)
     * @return the target, or null where anchors.md sets none
     */
    public static Limit limit(String scenario, String metric, String endpoint) {
        boolean argus = scenario.equals("jvm-only") || scenario.equals("default-0") || scenario.equals("default-100");
        if (!argus) {
            return null;
        }
        boolean full = scenario.equals("default-100");
        boolean trivial = "ping".equals(endpoint);
        return switch (metric) {
            case "startupMs" -> new Limit(1.10, false);
            case "qps" -> new Limit(full ? (trivial ? 0.90 : 0.98) : 0.99, true);
            case "p99Ms" -> full && trivial ? null : new Limit(full ? 1.05 : 1.03, false);
            default -> null;
        };
    }
}
