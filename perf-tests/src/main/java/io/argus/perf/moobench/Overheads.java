package io.argus.perf.moobench;

import io.argus.perf.harness.stats.LinearFit;
import io.argus.perf.harness.stats.Stats;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Nanoseconds per instrumented call, from the mean (and the median) response time of a trace:
 * a configuration's overhead is (its time - T's time) / depth; MooBench's portions are the
 * differences of consecutive Argus configurations: I = T+I - T, C = T+I+C - T+I, W = T+I+C+W - T+I+C.
 */
public final class Overheads {

    private Overheads() {
    }

    /** One configuration's overhead per instrumented call relative to T. */
    public static final class PerCall {
        public String config;
        public double meanNs;
        public double ci95;
        public double medianNs;
        public double trimmedNs;

        PerCall(String config, double meanNs, double ci95, double medianNs, double trimmedNs) {
            this.config = config;
            this.meanNs = meanNs;
            this.ci95 = ci95;
            this.medianNs = medianNs;
            this.trimmedNs = trimmedNs;
        }
    }

    /** Overhead vs T of every configuration with results, per instrumented call; empty without T. */
    public static Map<String, PerCall> versusT(List<MooResults.ConfigResult> configs) {
        Map<String, PerCall> out = new LinkedHashMap<>();
        MooResults.ConfigResult t = find(configs, BenchConfig.T.label());
        if (t == null || t.response == null) {
            return out;
        }
        for (MooResults.ConfigResult c : configs) {
            if (c.response == null || c == t) {
                continue;
            }
            double[] d = Stats.meanDifference(c.response.mean, c.response.ci95, t.response.mean, t.response.ci95);
            out.put(c.name, new PerCall(c.name, d[0] / c.depth, d[1] / c.depth,
                    (c.response.median - t.response.median) / c.depth,
                    (c.response.trimmedMean - t.response.trimmedMean) / c.depth));
        }
        return out;
    }

    /** The configuration each portion ends at: I -> T+I, C -> T+I+C, W -> T+I+C+W, W(all) -> T+I+C+W(all). */
    public static String configOf(String portion) {
        return switch (portion) {
            case "I" -> BenchConfig.T_I.label();
            case "C" -> BenchConfig.T_I_C.label();
            case "W" -> BenchConfig.T_I_C_W.label();
            case "W(all)" -> BenchConfig.T_I_C_W_ALL.label();
            default -> null;
        };
    }

    /**
     * Spans the exporter took per second of the measured half (written to the collector; in T+I+C discarded) and
     * the share dropped at the full queue, averaged over the configuration's runs; null without such figures.
     */
    public record SpanRate(double sentPerSecond, double dropShare, int runs) {
    }

    public static SpanRate spanRate(MooResults.ConfigResult c) {
        if (c == null) {
            return null;
        }
        double sent = 0;
        double drop = 0;
        int n = 0;
        for (MooResults.RunResult run : c.runs) {
            if (run.ok && run.spansSentPerSecond != null && run.dropShare != null) {
                sent += run.spansSentPerSecond;
                drop += run.dropShare;
                n++;
            }
        }
        return n == 0 ? null : new SpanRate(sent / n, drop / n, n);
    }

    /** The portions I, C, W and W(all) (in that order, those that can be computed). */
    public static Map<String, PerCall> portions(List<MooResults.ConfigResult> configs) {
        Map<String, PerCall> out = new LinkedHashMap<>();
        String[][] steps = {
                {"I", BenchConfig.T.label(), BenchConfig.T_I.label()},
                {"C", BenchConfig.T_I.label(), BenchConfig.T_I_C.label()},
                {"W", BenchConfig.T_I_C.label(), BenchConfig.T_I_C_W.label()},
                {"W(all)", BenchConfig.T_I_C.label(), BenchConfig.T_I_C_W_ALL.label()},
        };
        for (String[] step : steps) {
            MooResults.ConfigResult from = find(configs, step[1]);
            MooResults.ConfigResult to = find(configs, step[2]);
            if (from == null || to == null || from.response == null || to.response == null) {
                continue;
            }
            double[] d = Stats.meanDifference(to.response.mean, to.response.ci95, from.response.mean, from.response.ci95);
            out.put(step[0], new PerCall(step[0], d[0] / to.depth, d[1] / to.depth,
                    (to.response.median - from.response.median) / to.depth,
                    (to.response.trimmedMean - from.response.trimmedMean) / to.depth));
        }
        return out;
    }

    /** Overhead per trace against depth for one configuration of the depth series, and its line. */
    public static final class DepthCurve {
        public String config;
        public List<Integer> depths = new ArrayList<>();
        /** Mean response time minus T's at the same depth (ns per trace). */
        public List<Double> overheadNs = new ArrayList<>();
        public List<Double> overheadMedianNs = new ArrayList<>();
        public List<Double> overheadTrimmedNs = new ArrayList<>();
        public LinearFit fit;
        public LinearFit medianFit;
        public LinearFit trimmedFit;
    }

    public static List<DepthCurve> depthCurves(List<MooResults.ConfigResult> series) {
        Map<String, Map<Integer, MooResults.ConfigResult>> byConfig = new LinkedHashMap<>();
        for (MooResults.ConfigResult c : series) {
            byConfig.computeIfAbsent(c.name, k -> new LinkedHashMap<>()).put(c.depth, c);
        }
        Map<Integer, MooResults.ConfigResult> t = byConfig.get(BenchConfig.T.label());
        List<DepthCurve> out = new ArrayList<>();
        if (t == null) {
            return out;
        }
        for (Map.Entry<String, Map<Integer, MooResults.ConfigResult>> e : byConfig.entrySet()) {
            if (e.getKey().equals(BenchConfig.T.label())) {
                continue;
            }
            DepthCurve curve = new DepthCurve();
            curve.config = e.getKey();
            List<Integer> depths = new ArrayList<>(e.getValue().keySet());
            depths.sort(null);
            for (int d : depths) {
                MooResults.ConfigResult c = e.getValue().get(d);
                MooResults.ConfigResult base = t.get(d);
                if (c.response == null || base == null || base.response == null) {
                    continue;
                }
                curve.depths.add(d);
                curve.overheadNs.add(c.response.mean - base.response.mean);
                curve.overheadMedianNs.add(c.response.median - base.response.median);
                curve.overheadTrimmedNs.add(c.response.trimmedMean - base.response.trimmedMean);
            }
            if (curve.depths.size() >= 2) {
                double[] x = curve.depths.stream().mapToDouble(Integer::doubleValue).toArray();
                curve.fit = LinearFit.of(x, curve.overheadNs.stream().mapToDouble(Double::doubleValue).toArray());
                curve.medianFit = LinearFit.of(x, curve.overheadMedianNs.stream().mapToDouble(Double::doubleValue).toArray());
                curve.trimmedFit = LinearFit.of(x, curve.overheadTrimmedNs.stream().mapToDouble(Double::doubleValue).toArray());
            }
            out.add(curve);
        }
        return out;
    }

    static MooResults.ConfigResult find(List<MooResults.ConfigResult> configs, String name) {
        for (MooResults.ConfigResult c : configs) {
            if (c.name.equals(name)) {
                return c;
            }
        }
        return null;
    }
}
