package io.argus.perf.load.report;

import io.argus.perf.harness.report.Fmt;
import io.argus.perf.harness.stats.Stats;
import io.argus.perf.load.model.RunResults.Comparison;
import io.argus.perf.load.model.RunResults.MetricComparison;
import io.argus.perf.load.model.RunResults.ProcessResources;
import io.argus.perf.load.model.RunResults.ProcessStartup;
import io.argus.perf.load.model.RunResults.Round;
import io.argus.perf.load.model.RunResults.ScenarioResult;
import io.argus.perf.load.model.RunResults.StartupLaunch;
import io.argus.perf.load.model.RunResults;
import io.argus.perf.load.stats.Analysis;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** report.md: every table of the run, in the order of {@link #SECTIONS}. */
public final class MarkdownReport {

    public static final List<String> SECTIONS = List.of("Headline", "Method", "Machine", "Scenarios and agent settings",
            "Startup", "Closed loop", "Gatling", "Resources", "Collector", "Statistics vs baseline",
            "Errors and outliers");

    private final RunResults r;
    private final StringBuilder b = new StringBuilder();

    private MarkdownReport(RunResults r) {
        this.r = r;
    }

    public static String render(RunResults results) {
        return new MarkdownReport(results).build();
    }

    private String build() {
        RunResults.Settings st = r.settings;
        line("# Argus overhead report");
        line("");
        line("Target **" + st.target + "** (endpoint `" + st.endpoint + "`), mode **" + st.mode + "**, "
                + r.scenarios.size() + " scenario(s), started " + r.startedAt + ", took "
                + Fmt.num(r.durationSeconds / 60, 1) + " min. Raw samples: `results.json`; charts: `report.html`.");
        line("");
        headline();
        method();
        machine();
        scenarios();
        startup();
        closedLoop();
        gatling();
        resources();
        collector();
        statistics();
        errors();
        return b.toString();
    }

    // ---------------------------------------------------------------------------------- sections

    private void headline() {
        section("Headline");
        if (busy(r.machine)) {
            line("**Warning:** the 1-minute load average (" + r.machine.loadAverageStart + " at start, "
                    + r.machine.loadAverageEnd + " at end) exceeded the " + r.machine.cores
                    + " cores: other work competed with the targets, and these figures are not fit to publish.");
            line("");
        }
        line("Medians over the startup launches and over the measured closed-loop rounds; ratio = scenario / "
                + "baseline; p = two-sided Mann-Whitney U on QPS per round; d = Cohen's d on QPS per round "
                + "(negative: slower than baseline). Verdicts against the anchors targets (Argus scenarios only): "
                + "startup, QPS, P99.");
        line("");
        row("Scenario", "Agent", "Startup ms", "× base", "QPS", "× base", "P95 ms", "× base", "P99 ms", "× base",
                "p (QPS)", "d (QPS)", "Verdicts");
        sep(13);
        for (ScenarioResult s : r.scenarios) {
            Comparison c = comparison(s.name);
            double[] startup = Analysis.samples(s, "startupMs");
            double[] qps = Analysis.samples(s, "qps");
            double[] p95 = Analysis.samples(s, "p95Ms");
            double[] p99 = Analysis.samples(s, "p99Ms");
            MetricComparison cq = c == null ? null : c.metric("qps");
            row(s.name + (s.status.equals("ok") ? "" : " (" + s.status + ")"), s.agent,
                    startup.length == 0 ? Fmt.NONE : Fmt.num(Stats.median(startup), 0), ratio(c, "startupMs"),
                    qps.length == 0 ? Fmt.NONE : Fmt.num(Stats.median(qps), 1), ratio(c, "qps"),
                    p95.length == 0 ? Fmt.NONE : Fmt.ms(Stats.median(p95)), ratio(c, "p95Ms"),
                    p99.length == 0 ? Fmt.NONE : Fmt.ms(Stats.median(p99)), ratio(c, "p99Ms"),
                    cq == null ? Fmt.NONE : Fmt.p(cq.pValue), cq == null ? Fmt.NONE : Fmt.d(cq.cohensD),
                    verdicts(c));
        }
        line("");
    }

    private void method() {
        RunResults.Settings st = r.settings;
        section("Method");
        bullet("Every scenario runs in fresh JVMs. The " + st.target + " target's processes start one after the other, "
                + "each once the previous one answers; the agent of the scenario goes on every process.");
        bullet("**Startup delay**: " + st.startupRuns + " launch(es) per scenario, interleaved (pass 1: every scenario "
                + "once in order, then pass 2, ...) so that drift of the machine hits every scenario alike. Per "
                + "process: from just before the fork to the first successful HTTP response of its readiness check "
                + "(polled every 5 ms over a fresh socket), and the value of its 'Started @Nms' log line (ms since "
                + "JVM start, as the application reports it). The startup figure is the sum over the processes.");
        bullet("**Closed loop** (the seed's method): " + st.loadPasses + " fresh launch(es) per scenario, interleaved "
                + "across scenarios like the start-up launches (each also a start-up sample); per launch " + st.rounds + " round(s) of "
                + st.roundSize + " sequential requests on one keep-alive HTTP/1.1 connection (java.net.http); each "
                + "request timed with System.nanoTime() and recorded in a Micrometer Timer with "
                + "publishPercentiles(0.95, 0.99), publishPercentileHistogram() and percentilePrecision(3), one Timer "
                + "per round. Per round: min, max, avg, P95, P99, total (sum of latencies) and QPS = requests / total, "
                + "as in the seed. The first " + st.discardRounds + " round(s) of each launch are discarded as warm-up.");
        bullet("**Gatling** " + r.machine.gatlingVersion + ": after the closed loop, on the same JVMs, " + st.gatlingUsers
                + " virtual users each looping on its own keep-alive connection for " + st.gatlingSeconds + " s, "
                + "in a separate JVM. QPS/P95/P99 are read from the generated report's index.html statistics table "
                + "(whole milliseconds, as Gatling records them).");
        bullet("**Resources**: CPU time (utime + stime from /proc/<pid>/stat) over the measured rounds divided by "
                + "their requests; peak RSS (VmHWM) and threads from /proc/<pid>/status at the end; GC count and time "
                + "from `jstat -gc` over the measured rounds and in total; heap in use after a full GC forced with "
                + "`jcmd <pid> GC.run` at the end.");
        bullet("**Statistics**: medians with a distribution-free 95% confidence interval from order statistics "
                + "(binomial: the narrowest (x(k), x(n+1-k)) with coverage ≥ 95%; for n < 6 the full range and its "
                + "actual coverage); ratio of medians to the baseline; two-sided Mann-Whitney U test (exact without "
                + "ties for n ≤ 50, else normal approximation with tie and continuity correction); Cohen's d with the "
                + "pooled SD; Tukey fences (1.5 IQR, type-7 quartiles) for outliers. A target missed with p ≥ 0.05 is "
                + "INCONCLUSIVE rather than FAIL: the samples cannot tell the scenario from the baseline.");
        bullet("Samples compared: startup launches (n = " + (st.startupRuns + st.loadPasses) + " per scenario) and measured rounds (n = "
                + st.loadPasses * Math.max(0, st.rounds - st.discardRounds) + "). Few samples mean wide intervals and large p-values: "
                + "use --full for figures to publish.");
        for (String note : r.notes) {
            bullet(note);
        }
        line("");
    }

    private void machine() {
        RunResults.Machine m = r.machine;
        section("Machine");
        row("Fact", "Value");
        sep(2);
        row("CPU cores", Integer.toString(m.cores));
        row("Memory", Fmt.num((double) m.memoryMb, 0) + " MB");
        row("CPU", Fmt.cell(m.cpuModel));
        row("OS / kernel", Fmt.cell(m.os + " / " + m.kernel));
        row("Target JDK", Fmt.cell(m.targetJava));
        row("Harness JDK", Fmt.cell(m.harnessJava));
        row("Clock ticks/s (CPU time unit)", Long.toString(m.clockTicksPerSecond));
        row("Load average (1/5/15 min) at start / end", Fmt.cell(m.loadAverageStart) + " / " + Fmt.cell(m.loadAverageEnd)
                + (busy(m) ? " — **the machine was busy with other work: treat every figure with caution**" : ""));
        row("Argus agent", Fmt.cell(m.argusVersion));
        row("Gatling", Fmt.cell(m.gatlingVersion));
        row("Argus home", "`" + Fmt.cell(r.settings.argusHome) + "`");
        row("Peer agents", "`" + Fmt.cell(r.settings.peersDir) + "`");
        row("Extra JVM options", r.settings.extraJvmOptions.isEmpty() ? "none"
                : "`" + Fmt.cell(String.join(" ", r.settings.extraJvmOptions)) + "`");
        line("");
    }

    /** More runnable work than cores at start or end (1-minute load average). */
    static boolean busy(RunResults.Machine m) {
        for (String l : new String[]{m.loadAverageStart, m.loadAverageEnd}) {
            if (l != null && m.cores > 0) {
                try {
                    if (Double.parseDouble(l.split(" ")[0]) > m.cores) {
                        return true;
                    }
                } catch (NumberFormatException ignored) {
                    // unknown
                }
            }
        }
        return false;
    }

    private void scenarios() {
        section("Scenarios and agent settings");
        line("The exact JVM options each scenario adds to the `front` process (the `back` process gets the same with "
                + "its own service name). The collector port is chosen per run.");
        line("");
        for (ScenarioResult s : r.scenarios) {
            line("- **" + s.name + "** (" + s.agent + "): " + s.description);
            List<String> opts = s.jvmOptions.getOrDefault("front", List.of());
            line("");
            line("  ```");
            line("  " + (opts.isEmpty() ? "(no options)" : String.join(" ", opts)));
            line("  ```");
        }
        if (r.scenarios.stream().anyMatch(s -> s.name.equals("jvm-only")) && !r.settings.argusPlugins.isEmpty()) {
            line("");
            line("Argus plugins (from agent/plugins/): " + String.join(", ", r.settings.argusPlugins)
                    + "; jvm-only switches off all but jvm.");
        }
        line("");
    }

    private void startup() {
        section("Startup");
        Set<String> services = services();
        List<String> head = new ArrayList<>(List.of("Scenario", "n"));
        for (String svc : services) {
            head.add(svc + " ready ms");
            head.add(svc + " Started @ms");
        }
        head.addAll(List.of("Total ready ms (median)", "95% CI", "Total Started @ms", "Argus init ms"));
        row(head.toArray(String[]::new));
        sep(head.size());
        for (ScenarioResult s : r.scenarios) {
            List<String> cells = new ArrayList<>();
            cells.add(s.name);
            double[] total = Analysis.samples(s, "startupMs");
            cells.add(Integer.toString(total.length));
            for (String svc : services) {
                cells.add(medianOf(s, svc, false));
                cells.add(medianOf(s, svc, true));
            }
            if (total.length == 0) {
                cells.addAll(List.of(Fmt.NONE, Fmt.NONE));
            } else {
                Stats.Interval ci = Stats.medianConfidenceInterval(total, 0.95);
                cells.add(Fmt.num(ci.estimate(), 0));
                cells.add(ci(ci));
            }
            double[] logged = Analysis.samples(s, "startedLogMs");
            cells.add(logged.length == 0 ? Fmt.NONE : Fmt.num(Stats.median(logged), 0));
            List<Double> init = new ArrayList<>();
            for (StartupLaunch l : s.startup) {
                for (ProcessStartup p : l.processes) {
                    if (p.agentInitMs != null) {
                        init.add(p.agentInitMs.doubleValue());
                    }
                }
            }
            cells.add(init.isEmpty() ? Fmt.NONE
                    : Fmt.num(Stats.median(init.stream().mapToDouble(Double::doubleValue).toArray()), 0));
            row(cells.toArray(String[]::new));
        }
        line("");
        perProcess("Started @ms per process (median; the seed's layout: one row per process, one column per scenario)",
                p -> p.startedLogMs == null ? null : p.startedLogMs.doubleValue(), services);
        perProcess("Spawn to ready, ms per process (median)", p -> p.readyMs, services);
        perProcess("CPU ms used by the time the process was ready (median; user + system, all threads)",
                p -> p.cpuMsAtReady, services);
        line("Every launch, in the order run:");
        line("");
        List<String> h2 = new ArrayList<>(List.of("#", "Pass", "Scenario"));
        for (String svc : services) {
            h2.add(svc + " ms");
            h2.add(svc + " @ms");
        }
        h2.addAll(List.of("Total ms", "Error"));
        row(h2.toArray(String[]::new));
        sep(h2.size());
        List<Object[]> launches = new ArrayList<>();
        for (ScenarioResult s : r.scenarios) {
            for (StartupLaunch l : s.startup) {
                launches.add(new Object[]{l, s.name});
            }
        }
        launches.sort((a, c) -> Integer.compare(((StartupLaunch) a[0]).sequence, ((StartupLaunch) c[0]).sequence));
        for (Object[] o : launches) {
            StartupLaunch l = (StartupLaunch) o[0];
            List<String> cells = new ArrayList<>(List.of(Integer.toString(l.sequence), Integer.toString(l.pass),
                    (String) o[1]));
            for (String svc : services) {
                ProcessStartup p = l.processes.stream().filter(x -> x.service.equals(svc)).findFirst().orElse(null);
                cells.add(p == null ? Fmt.NONE : Fmt.num(p.readyMs, 0));
                cells.add(p == null || p.startedLogMs == null ? Fmt.NONE : Long.toString(p.startedLogMs));
            }
            cells.add(l.error == null ? Fmt.num(l.totalReadyMs, 0) : Fmt.NONE);
            cells.add(l.error == null ? "" : Fmt.cell(abbreviate(l.error, 120)));
            row(cells.toArray(String[]::new));
        }
        line("");
    }

    private void closedLoop() {
        section("Closed loop");
        line("Medians over the measured rounds (latencies in ms):");
        line("");
        row("Scenario", "Rounds", "Min", "Max", "Avg", "P95", "P99", "Total", "QPS", "Errors", "Request");
        sep(11);
        for (ScenarioResult s : r.scenarios) {
            if (s.closedLoop == null || s.closedLoop.rounds.isEmpty()) {
                row(s.name, "0", Fmt.NONE, Fmt.NONE, Fmt.NONE, Fmt.NONE, Fmt.NONE, Fmt.NONE, Fmt.NONE, Fmt.NONE, Fmt.NONE);
                continue;
            }
            List<Round> m = measured(s);
            row(s.name, Integer.toString(m.size()), Fmt.ms(med(m, "min")), Fmt.ms(med(m, "max")), Fmt.ms(med(m, "avg")),
                    Fmt.ms(med(m, "p95")), Fmt.ms(med(m, "p99")), Fmt.num(med(m, "total"), 1),
                    Fmt.num(med(m, "qps"), 1), Integer.toString(m.stream().mapToInt(x -> x.errors).sum()),
                    "`" + Fmt.cell(s.closedLoop.request) + "`");
        }
        line("");
        for (ScenarioResult s : r.scenarios) {
            if (s.closedLoop == null || s.closedLoop.rounds.isEmpty()) {
                continue;
            }
            line("### " + s.name);
            line("");
            row("Round", "Min(ms)", "Max(ms)", "Avg(ms)", "P95(ms)", "P99(ms)", "Total(ms)", "QPS", "Errors",
                    "P99 exact(ms)", "Wall(ms)");
            sep(11);
            for (Round x : s.closedLoop.rounds) {
                row(x.index + (x.discarded ? " (discarded)" : ""), Fmt.plain(x.minMs, 6), Fmt.plain(x.maxMs, 6),
                        Fmt.plain(x.avgMs, 6), Fmt.plain(x.p95Ms, 6), Fmt.plain(x.p99Ms, 6), Fmt.plain(x.totalMs, 6),
                        Fmt.plain(x.qps, 6), Integer.toString(x.errors), Fmt.plain(x.p99ExactMs, 3),
                        Fmt.plain(x.wallMs, 1));
            }
            line("");
        }
    }

    private void gatling() {
        section("Gatling");
        line("Figures from each run's HTML report (index.html statistics table, All Requests row).");
        line("");
        row("Scenario", "Users", "Seconds", "Requests", "KO", "QPS", "Mean ms", "P50 ms", "P95 ms", "P99 ms", "Max ms",
                "Report");
        sep(12);
        for (ScenarioResult s : r.scenarios) {
            RunResults.Gatling g = s.gatling;
            if (g == null) {
                row(s.name, Fmt.NONE, Fmt.NONE, Fmt.NONE, Fmt.NONE, Fmt.NONE, Fmt.NONE, Fmt.NONE, Fmt.NONE, Fmt.NONE,
                        Fmt.NONE, "not run");
                continue;
            }
            String report = g.reportIndex == null ? Fmt.cell(g.error) : "[" + g.reportIndex + "](" + g.reportIndex + ")";
            row(s.name, Integer.toString(g.users), Integer.toString(g.seconds), Long.toString(g.requests),
                    Long.toString(g.ko), Fmt.num(g.qps, 1), Fmt.num(g.meanMs, 0), Fmt.num(g.p50Ms, 0),
                    Fmt.num(g.p95Ms, 0), Fmt.num(g.p99Ms, 0), Fmt.num(g.maxMs, 0), report);
        }
        line("");
    }

    private void resources() {
        section("Resources");
        line("Per process, from the load-phase launch. CPU per request covers the measured closed-loop rounds; "
                + "memory, threads and totals are taken at the end of the load phase.");
        line("");
        row("Scenario", "Process", "CPU µs/request", "CPU ms (measured)", "Peak RSS MB", "RSS MB", "Heap after GC MB",
                "Threads", "GC count (measured / total)", "GC ms (measured / total)");
        sep(10);
        for (ScenarioResult s : r.scenarios) {
            for (ProcessResources p : s.resources) {
                row(s.name, p.service, Fmt.num(p.cpuUsPerRequest, 1), Fmt.num(p.cpuMsMeasured, 0),
                        Fmt.num(p.vmHwmKb / 1024.0, 1), Fmt.num(p.vmRssKb / 1024.0, 1),
                        p.heapUsedAfterGcKb == null ? Fmt.NONE : Fmt.num(p.heapUsedAfterGcKb / 1024.0, 1),
                        Integer.toString(p.threads),
                        str(p.gcCountMeasured) + " / " + str(p.gcCountTotal),
                        Fmt.num(p.gcTimeMsMeasured, 1) + " / " + Fmt.num(p.gcTimeMsTotal, 1));
            }
        }
        line("");
    }

    private void collector() {
        section("Collector");
        line("The Argus scenarios export to a real collector started from the distribution (fresh data folder per "
                + "scenario). After the load phase the harness asks its API how many traces of `front` it stored.");
        line("");
        row("Scenario", "Services", "Traces stored", "Requests sent", "Spans received", "Spans stored",
                "Rows dropped", "Frames rejected", "HTTP metric rows", "JVM gauge rows", "Newest trace",
                "Collector CPU ms");
        sep(12);
        boolean any = false;
        for (ScenarioResult s : r.scenarios) {
            RunResults.CollectorCheck c = s.collector;
            if (c == null) {
                continue;
            }
            any = true;
            row(s.name, Fmt.cell(String.join(", ", c.services)), c.tracesStored == null ? Fmt.cell(c.detail)
                            : (c.tracesAtLimit ? "≥ " : "") + c.tracesStored, Long.toString(c.requestsSent),
                    Fmt.num(c.spansReceived, 0), Fmt.num(c.spansStored, 0), Fmt.num(c.rowsDropped, 0),
                    Fmt.num(c.framesRejected, 0), Fmt.num(c.httpMetricsStored, 0), Fmt.num(c.jvmGaugesStored, 0),
                    c.sampleTraceId == null ? Fmt.NONE : c.sampleTraceSpans + " spans from "
                            + String.join(" + ", c.sampleTraceServices), Fmt.num(c.cpuMsTotal, 0));
        }
        if (!any) {
            row("(no collector scenario)", "", "", "", "", "", "", "", "", "", "", "");
        }
        line("");
        line("Traces are counted with `GET " + traceQuery() + "` (the API returns at most 1,000, so \"≥ 1000\" means "
                + "at least that many); spans and drops come from the collector's own counters (`GET /metrics`).");
        line("");
    }

    private String traceQuery() {
        for (ScenarioResult s : r.scenarios) {
            if (s.collector != null && s.collector.query != null) {
                return s.collector.query;
            }
        }
        return "/api/traces?service=front&limit=1000";
    }

    private void statistics() {
        section("Statistics vs baseline");
        if (r.comparisons.isEmpty()) {
            line("No comparison: the run has no baseline or no other scenario.");
            line("");
            return;
        }
        row("Scenario", "Metric", "n", "Median", "95% CI", "Baseline", "Ratio", "U", "p", "d", "Target", "Verdict");
        sep(12);
        for (Comparison c : r.comparisons) {
            for (MetricComparison m : c.metrics) {
                String ci = m.ciLow == null ? Fmt.NONE : "[" + Fmt.num(m.ciLow, digits(m)) + ", " + Fmt.num(m.ciHigh, digits(m))
                        + "] (" + Fmt.num(m.ciCoverage * 100, 1) + "%)";
                row(c.scenario, m.metric + (m.unit.isEmpty() ? "" : " (" + m.unit + ")"), m.n + " vs " + m.baselineN,
                        Fmt.num(m.median, digits(m)), ci, Fmt.num(m.baselineMedian, digits(m)), Fmt.ratio(m.ratio),
                        Fmt.num(m.mannWhitneyU, 1), m.pValue == null ? Fmt.NONE : Fmt.p(m.pValue) + " (" + m.pMethod + ")",
                        Fmt.d(m.cohensD), m.target == null ? Fmt.NONE : m.target, m.verdict);
            }
        }
        line("");
    }

    private void errors() {
        section("Errors and outliers");
        row("Scenario", "Status", "Closed-loop errors", "Error rate", "Gatling KO", "Outlier rounds (QPS)",
                "Outlier launches (startup)");
        sep(7);
        for (ScenarioResult s : r.scenarios) {
            long requests = 0;
            long errors = 0;
            for (Round x : measured(s)) {
                requests += x.requests;
                errors += x.errors;
            }
            row(s.name, s.status, Long.toString(errors), requests == 0 ? Fmt.NONE
                            : Fmt.num(100.0 * errors / requests, 3) + "%",
                    s.gatling == null ? Fmt.NONE : Long.toString(s.gatling.ko),
                    outliers(Analysis.samples(s, "qps"), true), outliers(Analysis.samples(s, "startupMs"), false));
        }
        line("");
        boolean any = false;
        for (ScenarioResult s : r.scenarios) {
            for (String e : s.errors) {
                if (!any) {
                    line("Problems met during the run:");
                    line("");
                    any = true;
                }
                bullet("**" + s.name + "**: " + abbreviate(e, 400));
            }
        }
        if (!any) {
            line("No scenario reported a problem.");
        }
        line("");
    }

    // ---------------------------------------------------------------------------------- helpers

    private String outliers(double[] x, boolean rounds) {
        List<Integer> idx = Stats.tukeyOutliers(x, 1.5);
        if (idx.isEmpty()) {
            return "none";
        }
        List<String> out = new ArrayList<>();
        for (int i : idx) {
            out.add((rounds ? "#" + (i + 1 + r.settings.discardRounds) : "launch " + (i + 1)) + " = " + Fmt.num(x[i], 1));
        }
        return String.join(", ", out);
    }

    private static List<Round> measured(ScenarioResult s) {
        List<Round> m = new ArrayList<>();
        if (s.closedLoop != null) {
            for (Round x : s.closedLoop.rounds) {
                if (!x.discarded) {
                    m.add(x);
                }
            }
        }
        return m;
    }

    private static double med(List<Round> rounds, String field) {
        double[] v = new double[rounds.size()];
        for (int i = 0; i < v.length; i++) {
            Round x = rounds.get(i);
            v[i] = switch (field) {
                case "min" -> x.minMs;
                case "max" -> x.maxMs;
                case "avg" -> x.avgMs;
                case "p95" -> x.p95Ms;
                case "p99" -> x.p99Ms;
                case "total" -> x.totalMs;
                default -> x.qps;
            };
        }
        return v.length == 0 ? Double.NaN : Stats.median(v);
    }

    private void perProcess(String title, java.util.function.Function<ProcessStartup, Double> value, Set<String> services) {
        line(title + ":");
        line("");
        List<String> head = new ArrayList<>(List.of("Process"));
        r.scenarios.forEach(s -> head.add(s.name));
        row(head.toArray(String[]::new));
        sep(head.size());
        ScenarioResult base = r.scenario("baseline");
        for (String svc : services) {
            List<String> cells = new ArrayList<>(List.of(svc));
            double b = base == null ? Double.NaN : median(base, svc, value);
            for (ScenarioResult s : r.scenarios) {
                double m = median(s, svc, value);
                if (Double.isNaN(m)) {
                    cells.add(Fmt.NONE);
                } else if (s == base || Double.isNaN(b) || b <= 0) {
                    cells.add(Fmt.num(m, 0));
                } else {
                    cells.add(Fmt.num(m, 0) + " (×" + Fmt.num(m / b, 2) + ")");
                }
            }
            row(cells.toArray(String[]::new));
        }
        line("");
    }

    private static double median(ScenarioResult s, String service, java.util.function.Function<ProcessStartup, Double> value) {
        List<Double> v = new ArrayList<>();
        for (StartupLaunch l : s.startup) {
            if (l.error != null) {
                continue;
            }
            for (ProcessStartup p : l.processes) {
                Double x = p.service.equals(service) ? value.apply(p) : null;
                if (x != null) {
                    v.add(x);
                }
            }
        }
        return v.isEmpty() ? Double.NaN : Stats.median(v.stream().mapToDouble(Double::doubleValue).toArray());
    }

    private String medianOf(ScenarioResult s, String service, boolean logged) {
        List<Double> v = new ArrayList<>();
        for (StartupLaunch l : s.startup) {
            if (l.error != null) {
                continue;
            }
            for (ProcessStartup p : l.processes) {
                if (p.service.equals(service)) {
                    if (logged && p.startedLogMs != null) {
                        v.add(p.startedLogMs.doubleValue());
                    } else if (!logged) {
                        v.add(p.readyMs);
                    }
                }
            }
        }
        return v.isEmpty() ? Fmt.NONE : Fmt.num(Stats.median(v.stream().mapToDouble(Double::doubleValue).toArray()), 0);
    }

    private Set<String> services() {
        Set<String> services = new LinkedHashSet<>();
        for (ScenarioResult s : r.scenarios) {
            for (StartupLaunch l : s.startup) {
                for (ProcessStartup p : l.processes) {
                    services.add(p.service);
                }
            }
        }
        return services;
    }

    private Comparison comparison(String scenario) {
        for (Comparison c : r.comparisons) {
            if (c.scenario.equals(scenario)) {
                return c;
            }
        }
        return null;
    }

    private static String ratio(Comparison c, String metric) {
        MetricComparison m = c == null ? null : c.metric(metric);
        return m == null ? Fmt.NONE : Fmt.ratio(m.ratio);
    }

    private static String verdicts(Comparison c) {
        if (c == null) {
            return Fmt.NONE;
        }
        List<String> v = new ArrayList<>();
        for (MetricComparison m : c.metrics) {
            if (m.target != null) {
                v.add(m.metric + " " + m.verdict);
            }
        }
        return v.isEmpty() ? "reference" : String.join(", ", v);
    }

    private static String ci(Stats.Interval ci) {
        return "[" + Fmt.num(ci.low(), 0) + ", " + Fmt.num(ci.high(), 0) + "] (" + Fmt.num(ci.coverage() * 100, 1) + "%)";
    }

    private static int digits(MetricComparison m) {
        return m.unit.equals("ms") ? (m.median != null && m.median >= 100 ? 1 : 3) : m.unit.equals("%") ? 3 : 1;
    }

    private static String str(Long v) {
        return v == null ? Fmt.NONE : Long.toString(v);
    }

    private static String abbreviate(String s, int max) {
        String one = s.replace('\n', ' ');
        return one.length() <= max ? one : one.substring(0, max) + "…";
    }

    private void section(String name) {
        line("## " + name);
        line("");
    }

    private void bullet(String text) {
        line("- " + text);
    }

    private void row(String... cells) {
        b.append('|');
        for (String c : cells) {
            b.append(' ').append(c == null ? Fmt.NONE : c).append(" |");
        }
        b.append('\n');
    }

    private void sep(int n) {
        b.append('|');
        b.append("---|".repeat(n));
        b.append('\n');
    }

    private void line(String s) {
        b.append(s).append('\n');
    }
}
