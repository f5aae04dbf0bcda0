package io.argus.perf.load.report;

import io.argus.perf.load.Scenario;
import io.argus.perf.load.model.RunResults;
import io.argus.perf.load.model.RunResults.ClosedLoop;
import io.argus.perf.load.model.RunResults.ProcessResources;
import io.argus.perf.load.model.RunResults.ProcessStartup;
import io.argus.perf.load.model.RunResults.Round;
import io.argus.perf.load.model.RunResults.ScenarioResult;
import io.argus.perf.load.model.RunResults.StartupLaunch;
import io.argus.perf.load.stats.Analysis;

import java.util.List;
import java.util.Random;

/** A complete, plausible run of every scenario, made up with a fixed seed. */
final class SyntheticResults {

    static final int STARTUP_RUNS = 3;
    static final int ROUNDS = 6;
    static final int ROUND_SIZE = 50;

    private SyntheticResults() {
    }

    static RunResults make() {
        Random rnd = new Random(42);
        RunResults r = new RunResults();
        r.tool = "argus-perf test";
        r.startedAt = "2026-01-01T00:00:00Z";
        r.finishedAt = "2026-01-01T00:05:00Z";
        r.durationSeconds = 300;
        r.settings.target = "sample";
        r.settings.endpoint = "call";
        r.settings.mode = "quick";
        r.settings.startupRuns = STARTUP_RUNS;
        r.settings.rounds = ROUNDS;
        r.settings.roundSize = ROUND_SIZE;
        r.settings.discardRounds = 1;
        r.settings.gatlingUsers = 8;
        r.settings.gatlingSeconds = 5;
        r.settings.observeTimeoutSeconds = 60;
        r.settings.moobench = "short";
        r.settings.argusPlugins = List.of("jvm", "jetty");
        r.machine.cores = 2;
        r.machine.memoryMb = 4096;
        r.machine.cpuModel = "Test CPU | with a pipe";
        r.machine.targetJava = "openjdk version \"17.0.15\" 2025-04-15";
        r.machine.gatlingVersion = "3.15.1";
        // baseline, jvm-only, default-0, default-0-cold, default-100, default-100-deferred, otel, otel-otlp,
        // otel-otlp-grpc, elastic, transformer-floor
        double[] slowdown = {1.0, 1.01, 1.02, 1.04, 1.05, 1.06, 1.4, 1.45, 1.47, 1.3, 1.01};
        int seq = 0;
        for (int si = 0; si < Scenario.ALL.size(); si++) {
            Scenario sc = Scenario.ALL.get(si);
            ScenarioResult s = new ScenarioResult();
            s.name = sc.name();
            s.description = sc.description();
            s.agent = sc.agent();
            s.observable = sc.observable();
            s.readyOnlyReason = sc.readyOnlyReason();
            s.jvmOptions.put("front", List.of("-javaagent:/x/" + sc.name() + ".jar", "-Dfoo=<bar>"));
            s.jvmOptions.put("back", List.of());
            for (int pass = 1; pass <= STARTUP_RUNS; pass++) {
                StartupLaunch l = new StartupLaunch();
                l.pass = pass;
                l.sequence = ++seq;
                for (String svc : List.of("back", "front")) {
                    ProcessStartup p = new ProcessStartup();
                    p.service = svc;
                    p.readyMs = 500 * slowdown[si] + rnd.nextGaussian() * 20;
                    p.startedLogMs = Math.round(p.readyMs - 60);
                    p.agentInitMs = sc.isArgus() ? 80L : null;
                    p.cpuMsAtReady = 900.0 * slowdown[si] + pass;
                    p.classesAtReady = sc.isArgus() ? 4000L + pass : 2400L + pass;
                    if (sc.observable()) {
                        // deferred: observed a second after ready; otherwise from the first answer
                        boolean deferred = "deferred".equals(sc.startupMode());
                        p.observedProbeSentMs = p.readyMs + (deferred ? 1000 : -3);
                        p.observedMs = Math.max(p.readyMs, p.observedProbeSentMs);
                        p.probesSent = deferred ? 60 : 40;
                        p.probesUnobserved = deferred ? 45 : 0;
                        p.observation = "observed";
                        p.observedTraceId = "0123456789abcdef0123456789abcdef";
                    } else {
                        p.observation = "not probed";
                    }
                    l.processes.add(p);
                }
                l.totalReadyMs = l.processes.stream().mapToDouble(p -> p.readyMs).sum();
                l.totalStartedLogMs = l.processes.stream().mapToDouble(p -> p.startedLogMs).sum();
                if (sc.observable()) {
                    l.totalObservedMs = l.processes.stream().mapToDouble(p -> p.observedMs).sum();
                }
                s.startup.add(l);
            }
            ClosedLoop cl = new ClosedLoop();
            cl.request = "GET http://127.0.0.1:1/front/call";
            cl.roundSize = ROUND_SIZE;
            cl.discardRounds = 1;
            for (int i = 1; i <= ROUNDS; i++) {
                Round x = new Round();
                x.index = i;
                x.discarded = i == 1;
                x.requests = ROUND_SIZE;
                x.errors = sc == Scenario.ELASTIC && i == 3 ? 2 : 0;
                x.avgMs = 1.0 * slowdown[si] * (i == 1 ? 2 : 1) + rnd.nextGaussian() * 0.02;
                x.minMs = x.avgMs * 0.5;
                x.maxMs = x.avgMs * 5;
                x.p95Ms = x.avgMs * 1.8;
                x.p99Ms = x.avgMs * 2.5;
                x.p50ExactMs = x.avgMs * 0.9;
                x.p95ExactMs = x.p95Ms;
                x.p99ExactMs = x.p99Ms;
                x.totalMs = x.avgMs * ROUND_SIZE;
                x.qps = ROUND_SIZE / (x.totalMs / 1000);
                x.wallMs = x.totalMs * 1.01;
                x.latenciesUs = new int[ROUND_SIZE];
                for (int k = 0; k < ROUND_SIZE; k++) {
                    x.latenciesUs[k] = (int) (x.avgMs * 1000 + rnd.nextInt(100));
                }
                // front 170 µs and back 40 µs a request at baseline, 3 KB and 1 KB
                x.cpuMs.put("front", ROUND_SIZE * 0.170 * slowdown[si] * (1 + rnd.nextGaussian() * 0.01));
                x.cpuMs.put("back", ROUND_SIZE * 0.040 * slowdown[si] * (1 + rnd.nextGaussian() * 0.01));
                x.allocatedBytes.put("front", (long) (ROUND_SIZE * 3000 * slowdown[si]));
                x.allocatedBytes.put("back", (long) (ROUND_SIZE * 1000 * slowdown[si]));
                if (sc.needsCollector()) {
                    x.collectorCpuMs = ROUND_SIZE * 0.012 * (1 + rnd.nextGaussian() * 0.02);
                    x.collectorSpansStored = sc.samplingRate() == 100 ? ROUND_SIZE * 3.0 : 0.0;
                }
                cl.rounds.add(x);
            }
            s.closedLoop = cl;
            RunResults.Gatling g = new RunResults.Gatling();
            g.users = 8;
            g.seconds = 5;
            g.source = "index.html";
            g.requests = 5000;
            g.qps = 1000 / slowdown[si];
            g.p95Ms = 5 * slowdown[si];
            g.p99Ms = 9 * slowdown[si];
            g.reportIndex = "gatling/" + s.name + "/run/index.html";
            s.gatling = g;
            for (String svc : List.of("front", "back")) {
                ProcessResources pr = new ProcessResources();
                pr.service = svc;
                pr.pid = 1000 + si;
                pr.measuredRequests = ROUND_SIZE * (ROUNDS - 1);
                pr.cpuMsMeasured = 100 * slowdown[si];
                pr.cpuUsPerRequest = pr.cpuMsMeasured * 1000 / pr.measuredRequests;
                pr.allocBytesPerRequest = svc.equals("front") ? 3000 * slowdown[si] : 1000 * slowdown[si];
                pr.allocSource = sc == Scenario.ELASTIC && svc.equals("back") ? "not measured: cannot attach" : "ThreadMXBean";
                pr.gatlingCpuUsPerRequest = svc.equals("front") ? 150 * slowdown[si] : 35 * slowdown[si];
                pr.gatlingAllocBytesPerRequest = pr.allocBytesPerRequest;
                pr.vmHwmKb = 200_000;
                pr.vmRssKb = 190_000;
                pr.threads = 40;
                pr.gcCountMeasured = 1L;
                pr.gcTimeMsMeasured = 3.0;
                pr.gcCountTotal = 5L;
                pr.gcTimeMsTotal = 20.0;
                pr.heapUsedAfterGcKb = 12_000L;
                s.resources.add(pr);
            }
            if (sc.needsCollector()) {
                RunResults.CollectorCheck c = new RunResults.CollectorCheck();
                c.services = List.of("back", "front");
                c.requestsSent = 5302;
                c.tracesStored = sc.samplingRate() == 100 ? 5302L : 0L;
                c.query = "/api/traces?service=front&limit=10604";
                c.detail = "ok";
                c.cpuMsLoad = 900.0;
                c.spansStoredLoad = sc.samplingRate() == 100 ? 21_208.0 : 0.0;
                c.cpuUsPerSpan = c.spansStoredLoad > 0 ? c.cpuMsLoad * 1000 / c.spansStoredLoad : null;
                c.cpuUsPerRequest = c.cpuMsLoad * 1000 / 5300;
                s.collector = c;
            }
            if (sc == Scenario.ELASTIC) {
                s.errors.add("gatling: something odd");
                s.status = "partial";
            }
            r.scenarios.add(s);
        }
        r.moobench = new RunResults.MooBenchCheck();
        r.moobench.arguments = List.of("--configs", "T,T+I,T+I+C", "--runs", "1");
        r.moobench.depth = 10;
        r.moobench.calls = 1_000_000;
        r.moobench.seconds = 21;
        r.moobench.report = "moobench/moobench.md";
        for (String[] c : new String[][]{{"T", "95.0"}, {"T+I", "118.5"}, {"T+I+C", "1,060.2"}}) {
            RunResults.MooBenchConfig mc = new RunResults.MooBenchConfig();
            mc.name = c[0];
            mc.runs = 1;
            mc.meanNs = Double.parseDouble(c[1].replace(",", ""));
            mc.medianNs = mc.meanNs - 3;
            mc.ci95Ns = 1.5;
            r.moobench.configs.add(mc);
        }
        r.moobench.perCallMeanNs.put("I", 2.35);
        r.moobench.perCallMeanNs.put("C", 94.17);
        r.moobench.perCallMedianNs.put("I", 2.35);
        r.moobench.perCallMedianNs.put("C", 94.17);
        r.comparisons = Analysis.compare(r);
        return r;
    }
}
