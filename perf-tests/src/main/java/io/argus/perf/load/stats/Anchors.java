package io.argus.perf.load.stats;

import io.argus.perf.load.Scenario;

import java.util.Locale;

/**
 * Argus's targets from shared/anchors.md and the issues that set them, as limits on a comparison
 * with the baseline (or, for the collector's cost, on a value of its own). They apply to the Argus
 * scenarios; the peers are shown for reference, except where the figure is the Argus collector's
 * own cost (its CPU per span over OTLP when OpenTelemetry exports to it).
 *
 * <ul>
 *   <li>start-up, observed (the first request whose trace reached the collector, over the baseline's
 *       ready time): at most ×1.10 on the sample service, ×1.05 on every Druid process; a scenario
 *       that traces nothing (jvm-only) is held to the same on its ready time</li>
 *   <li>sampling 0% (and jvm-only, which does less): QPS at least ×0.99, P99 at most ×1.03, CPU per
 *       request at most ×1.02 in every instrumented process</li>
 *   <li>sampling 100%: on the sample service, QPS at least ×0.90 (the closed loop, stated for the
 *       separate-host placement) and at most +15 µs of CPU per request over the baseline, both
 *       processes together (the three spans of {@code /front/call}, export included); on Druid, the
 *       SQL query at least ×0.98 and P99 at most ×1.05, the coordinator's {@code /status/health} at
 *       least ×0.95</li>
 *   <li>the collector: at most 5 µs of its CPU per span stored from Argus agents, 10 µs over OTLP</li>
 * </ul>
 */
public final class Anchors {

    private Anchors() {
    }

    /** What a limit bounds. */
    public enum Kind {
        /** scenario / baseline, at most {@code value} */
        RATIO_AT_MOST,
        /** scenario / baseline, at least {@code value} */
        RATIO_AT_LEAST,
        /** scenario - baseline, at most {@code value} (in the metric's unit) */
        DIFFERENCE_AT_MOST,
        /** the scenario's own value, at most {@code value}: no baseline has it */
        VALUE_AT_MOST
    }

    /** A target; {@code unit} is the metric's, for the difference and value kinds. */
    public record Limit(Kind kind, double value, String unit) {

        public static Limit ratioAtMost(double v) {
            return new Limit(Kind.RATIO_AT_MOST, v, "");
        }

        public static Limit ratioAtLeast(double v) {
            return new Limit(Kind.RATIO_AT_LEAST, v, "");
        }

        /** True when larger is better: the interval must lie above the limit to pass. */
        public boolean atLeast() {
            return kind == Kind.RATIO_AT_LEAST;
        }

        public boolean onRatio() {
            return kind == Kind.RATIO_AT_MOST || kind == Kind.RATIO_AT_LEAST;
        }

        public String describe() {
            return switch (kind) {
                case RATIO_AT_MOST -> "ratio <= " + fmt(value, 2);
                case RATIO_AT_LEAST -> "ratio >= " + fmt(value, 2);
                case DIFFERENCE_AT_MOST -> "difference <= +" + fmt(value, 1) + " " + unit;
                case VALUE_AT_MOST -> "value <= " + fmt(value, 1) + " " + unit;
            };
        }

        private static String fmt(double v, int decimals) {
            return String.format(Locale.ROOT, "%." + decimals + "f", v);
        }
    }

    /**
     * @param target      sample or druid
     * @param endpoint    the load endpoint (sample: call, ping, cpu; druid: sql, health)
     * @param scenario    a scenario name; unknown names and the peers have no target (but see the collector)
     * @param metric      a metric of {@link Analysis}, with {@code .<process>} for a per-process one
     * @param instrumented for a per-process metric, whether the agent goes on that process
     * @return the target, or null where none is set
     */
    public static Limit limit(String target, String endpoint, String scenario, String metric, boolean instrumented) {
        Scenario s = Scenario.byName(scenario);
        if (s == null || s.isBaseline()) {
            return null;
        }
        int dot = metric.indexOf('.');
        String base = dot < 0 ? metric : metric.substring(0, dot);
        boolean perProcess = dot >= 0;
        boolean druid = "druid".equals(target);
        if (base.equals("collectorCpuUsPerSpan")) {
            if (s.samplingRate() == 0 || !s.needsCollector()) {
                return null;
            }
            return s.isArgus() ? new Limit(Kind.VALUE_AT_MOST, 5, "µs")
                    : s.agent().equals("opentelemetry") ? new Limit(Kind.VALUE_AT_MOST, 10, "µs") : null;
        }
        if (!s.isArgus() || perProcess && !instrumented) {
            return null;
        }
        boolean full = s.samplingRate() == 100;
        double startup = druid ? 1.05 : 1.10;
        return switch (base) {
            // the observed time where the scenario traces; the ready time only where there is nothing to observe
            case "observedMs" -> s.observable() && (!perProcess || druid) ? Limit.ratioAtMost(startup) : null;
            case "startupMs" -> !s.observable() && (!perProcess || druid) ? Limit.ratioAtMost(startup) : null;
            case "qps" -> perProcess ? null : Limit.ratioAtLeast(!full ? 0.99 : !druid ? 0.90
                    : "health".equals(endpoint) ? 0.95 : 0.98);
            case "p99Ms" -> perProcess ? null : !full ? Limit.ratioAtMost(1.03)
                    : druid && !"health".equals(endpoint) ? Limit.ratioAtMost(1.05) : null;
            case "cpuUsPerRequest" -> {
                if (!full) {
                    yield perProcess ? Limit.ratioAtMost(1.02) : null;
                }
                // the three spans of /front/call, both processes together
                yield !perProcess && !druid && "call".equals(endpoint)
                        ? new Limit(Kind.DIFFERENCE_AT_MOST, 15, "µs") : null;
            }
            default -> null;
        };
    }
}
