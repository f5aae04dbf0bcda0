package io.argus.perf.load.report;

import io.argus.perf.harness.report.Fmt;
import io.argus.perf.harness.report.Markdown;
import io.argus.perf.harness.report.Section;
import io.argus.perf.harness.stats.Stats;
import io.argus.perf.load.model.RunResults;
import io.argus.perf.load.model.RunResults.ProcessStartup;
import io.argus.perf.load.model.RunResults.ScenarioResult;
import io.argus.perf.load.model.RunResults.StartupLaunch;
import io.argus.perf.load.stats.Analysis;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/** Start-up delay: per scenario, per process, and every launch in the order run. */
final class StartupSection implements Section<RunResults> {

    @Override
    public void render(RunResults r, Markdown md) {
        md.section("Startup");
        md.line("Ready: from just before the fork to the first successful answer of the process's readiness check. "
                + "Observed (tracing scenarios): from the same moment to the sending of the earliest request, from that "
                + "first answer on, whose trace the run's collector stored; the harness keeps probing the readiness "
                + "endpoint (every 10 ms, later every 2% of the time since the first answer), each probe with a sampled "
                + "traceparent of its own, and asks the collector for them (`GET /api/traces/{traceId}`). A process not "
                + "observed within " + r.settings.observeTimeoutSeconds + " s of its first answer counts as never "
                + "observed, with the time the probing gave up (a lower bound). Observed is never before ready: when the "
                + "first answered request is itself traced it equals ready (with Argus's start gate that request may "
                + "have waited for the agent's engine; results.json keeps when it was sent, `observedProbeSentMs`).");
        md.line("");
        Set<String> services = services(r);
        List<String> head = new ArrayList<>(List.of("Scenario", "n"));
        for (String svc : services) {
            head.add(svc + " ready ms");
            head.add(svc + " observed ms");
            head.add(svc + " Started @ms");
        }
        head.addAll(List.of("Total ready ms (median)", "95% CI", "Total observed ms", "95% CI", "Total Started @ms",
                "Argus up ms"));
        md.row(head.toArray(String[]::new));
        md.sep(head.size());
        for (ScenarioResult s : r.scenarios) {
            List<String> cells = new ArrayList<>();
            cells.add(s.name);
            double[] total = Analysis.samples(s, "startupMs");
            cells.add(Integer.toString(total.length));
            for (String svc : services) {
                cells.add(medianOf(s, svc, false));
                cells.add(s.observable ? num(median(s, svc, StartupSection::observedOrGaveUp)) : Fmt.NONE);
                cells.add(medianOf(s, svc, true));
            }
            cells.addAll(medianWithInterval(total));
            cells.addAll(s.observable ? medianWithInterval(Analysis.samples(s, "observedMs")) : List.of("ready only", ""));
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
            md.row(cells.toArray(String[]::new));
        }
        md.line("");
        md.line("Argus up ms: from premain to the agent's start line, median over processes: by then it loaded its"
                + " plugins and put in its probes (with argus.startup.mode=deferred, after waiting for a spare core). The"
                + " harness waits for a tracing scenario's process to be observed, and for that line, before it launches"
                + " the next process, so one agent's start-up never lands in another process's.");
        md.line("");
        for (ScenarioResult s : r.scenarios) {
            if (!s.observable) {
                md.bullet(s.name + ": ready only (" + s.readyOnlyReason + ")");
            }
        }
        md.line("");
        perProcess(r, md, "Spawn to observed, ms per process (median; × the baseline's ready time of the same process)",
                StartupSection::observedOrGaveUp, p -> p.readyMs, services);
        perProcess(r, md, "Started @ms per process (median; the seed's layout: one row per process, one column per scenario)",
                p -> p.startedLogMs == null ? null : p.startedLogMs.doubleValue(), services);
        perProcess(r, md, "Spawn to ready, ms per process (median)", p -> p.readyMs, services);
        perProcess(r, md, "CPU ms used by the time the process was ready (median; user + system, all threads)",
                p -> p.cpuMsAtReady, services);
        md.line("Every launch, in the order run:");
        md.line("");
        List<String> h2 = new ArrayList<>(List.of("#", "Pass", "Scenario"));
        for (String svc : services) {
            h2.add(svc + " ms");
            h2.add(svc + " observed");
            h2.add(svc + " @ms");
        }
        h2.addAll(List.of("Total ms", "Total observed", "Error"));
        md.row(h2.toArray(String[]::new));
        md.sep(h2.size());
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
                cells.add(observedCell(p));
                cells.add(p == null || p.startedLogMs == null ? Fmt.NONE : Long.toString(p.startedLogMs));
            }
            cells.add(l.error == null ? Fmt.num(l.totalReadyMs, 0) : Fmt.NONE);
            cells.add(l.error == null && l.totalObservedMs != null ? Fmt.num(l.totalObservedMs, 0)
                    + (l.neverObserved > 0 ? " (≥, " + l.neverObserved + " never observed)" : "") : Fmt.NONE);
            cells.add(l.error == null ? "" : Fmt.cell(Fmt.abbreviate(l.error, 120)));
            md.row(cells.toArray(String[]::new));
        }
        md.line("");
    }

    private static void perProcess(RunResults r, Markdown md, String title, Function<ProcessStartup, Double> value,
                                   Set<String> services) {
        perProcess(r, md, title, value, value, services);
    }

    /** @param baseValue the baseline's figure the ratios are taken against */
    private static void perProcess(RunResults r, Markdown md, String title, Function<ProcessStartup, Double> value,
                                   Function<ProcessStartup, Double> baseValue, Set<String> services) {
        md.line(title + ":");
        md.line("");
        List<String> head = new ArrayList<>(List.of("Process"));
        r.scenarios.forEach(s -> head.add(s.name));
        md.row(head.toArray(String[]::new));
        md.sep(head.size());
        ScenarioResult base = r.scenario("baseline");
        for (String svc : services) {
            List<String> cells = new ArrayList<>(List.of(svc));
            double b = base == null ? Double.NaN : median(base, svc, baseValue);
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
            md.row(cells.toArray(String[]::new));
        }
        md.line("");
    }

    /** The median of one figure of one process over a scenario's launches that did not fail; NaN if none. */
    static double median(ScenarioResult s, String service, Function<ProcessStartup, Double> value) {
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

    private static String medianOf(ScenarioResult s, String service, boolean logged) {
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

    private static Set<String> services(RunResults r) {
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

    private static String ci(Stats.Interval ci) {
        return "[" + Fmt.num(ci.low(), 0) + ", " + Fmt.num(ci.high(), 0) + "] (" + Fmt.num(ci.coverage() * 100, 1) + "%)";
    }

    private static List<String> medianWithInterval(double[] x) {
        if (x.length == 0) {
            return List.of(Fmt.NONE, Fmt.NONE);
        }
        Stats.Interval ci = Stats.medianConfidenceInterval(x, 0.95);
        return List.of(Fmt.num(ci.estimate(), 0), ci(ci));
    }

    /** Observed, or for a process never observed the time probing gave up (a lower bound). */
    static Double observedOrGaveUp(ProcessStartup p) {
        return p.observedMs != null ? p.observedMs : p.observeGaveUpMs;
    }

    private static String observedCell(ProcessStartup p) {
        if (p == null || p.observation == null || p.observation.startsWith("not probed")) {
            return Fmt.NONE;
        }
        if (p.observedMs != null) {
            return Fmt.num(p.observedMs, 0) + (p.probesUnobserved != null && p.probesUnobserved > 0
                    ? " (" + p.probesUnobserved + " unobserved)" : "");
        }
        return p.observeGaveUpMs == null ? "never" : "never (≥ " + Fmt.num(p.observeGaveUpMs, 0) + ")";
    }

    private static String num(double v) {
        return Double.isNaN(v) ? Fmt.NONE : Fmt.num(v, 0);
    }
}
