package io.argus.perf.load;

import io.argus.perf.harness.ArgusHome;
import io.argus.cluster.process.ProcessRegistry;
import io.argus.cluster.druid.DruidInstall;
import io.argus.perf.load.druid.DruidTarget;
import io.argus.perf.load.model.RunResults;
import io.argus.perf.load.model.RunResults.ScenarioResult;
import io.argus.perf.load.report.ReportWriter;
import io.argus.perf.load.target.SampleTarget;
import io.argus.perf.load.target.SpringTarget;
import io.argus.perf.load.target.Target;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code argus-perf}: measures what an agent costs a target application. See {@link PerfOptions#usage()}
 * and perf-tests/README.md.
 */
public final class PerfMain {

    public static final int OK = 0;
    public static final int FAILED = 1;
    public static final int BAD_ARGUMENTS = 2;

    private PerfMain() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs the suite; returns the exit code (0 ok, 1 a scenario failed, 2 bad arguments). */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        PerfOptions o;
        try {
            o = PerfOptions.parse(args);
        } catch (PerfOptions.BadArguments e) {
            err.println("argus-perf: " + e.getMessage());
            err.println("run argus-perf --help for the options");
            return BAD_ARGUMENTS;
        }
        if (o.help) {
            out.println(PerfOptions.usage());
            return OK;
        }
        if (o.reportOnly != null) {
            try {
                RunResults results = ReportWriter.read(o.reportOnly.resolve(ReportWriter.JSON));
                results.comparisons = io.argus.perf.load.stats.Analysis.compare(results);
                ReportWriter.write(results, o.reportOnly);
                out.println(headline(results));
                out.println("[argus-perf] report rewritten in " + o.reportOnly.toAbsolutePath());
                return OK;
            } catch (Exception e) {
                err.println("argus-perf: cannot re-render " + o.reportOnly + ": " + e);
                return FAILED;
            }
        }
        ArgusHome home = new ArgusHome(o.argusHome != null ? o.argusHome : ArgusHome.guess());
        Path peers = o.peersDir != null ? o.peersDir : home.defaultPeersDir();
        Path java = o.java != null ? o.java : Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> problems = preflight(o, home, peers);
        if (!problems.isEmpty()) {
            problems.forEach(p -> err.println("argus-perf: " + p));
            return BAD_ARGUMENTS;
        }
        Target target;
        try {
            target = target(o, home, out);
        } catch (Exception e) {
            err.println("argus-perf: cannot prepare target " + o.target + ": " + e.getMessage());
            return FAILED;
        }
        try {
            PerfRun run = new PerfRun(o, target, home, peers, java, out);
            RunResults results = run.run();
            Path dir = o.out.toAbsolutePath().normalize();
            ReportWriter.write(results, dir);
            out.println();
            out.println(headline(results));
            out.println("[argus-perf] report: " + dir.resolve(ReportWriter.MARKDOWN) + ", "
                    + dir.resolve(ReportWriter.HTML) + ", " + dir.resolve(ReportWriter.JSON));
            int failed = 0;
            for (ScenarioResult s : results.scenarios) {
                if (!s.status.equals("ok")) {
                    failed++;
                    err.println("argus-perf: scenario " + s.name + " " + s.status + ": " + String.join("; ", s.errors));
                }
            }
            return failed == 0 ? OK : FAILED;
        } catch (Exception e) {
            err.println("argus-perf: run failed: " + e);
            e.printStackTrace(err);
            return FAILED;
        } finally {
            ProcessRegistry.stopAll(3000);
        }
    }

    private static Target target(PerfOptions o, ArgusHome home, PrintStream out) throws Exception {
        if (o.target.equals("spring")) {
            return new SpringTarget(SpringTarget.shippedJar(home), o.endpoint);
        }
        if (!o.target.equals("druid")) {
            return new SampleTarget(o.endpoint);
        }
        String version = DruidInstall.pinnedVersion();
        DruidInstall install = new DruidInstall(o.druidHome != null ? o.druidHome : DruidInstall.defaultHome(version),
                version);
        int jars = install.ensure(out);
        out.println("[argus-perf] Apache Druid " + version + ": " + jars + " jars in " + install.lib());
        return new DruidTarget(install, o.druidRows, o.endpoint, out);
    }

    /** What is missing for the chosen scenarios; each entry says how to fix it. */
    static List<String> preflight(PerfOptions o, ArgusHome home, Path peers) {
        List<String> problems = new ArrayList<>();
        List<String> argus = new ArrayList<>();
        List<String> collector = new ArrayList<>();
        for (String name : o.scenarios) {
            Scenario s = Scenario.byName(name);
            if (s.isArgus()) {
                argus.add(name);
            }
            if (s.needsCollector()) {
                collector.add(name);
            }
            if (s.isPeer() && !Files.isRegularFile(peers.resolve(s.peerJar()))) {
                problems.add("scenario " + name + " needs " + peers.resolve(s.peerJar())
                        + " (build perf-tests with 'mvn package', which fetches it from Maven Central into "
                        + "perf-tests/target/peers/, or pass --peers DIR)");
            }
        }
        if (o.gatlingSeconds > 0 && io.argus.perf.load.run.GatlingRunner.findClassPath(home.root(), peers) == null) {
            problems.add("Gatling is neither on the class path nor in " + peers.resolve("gatling")
                    + " (mvn package of perf-tests puts it there); pass --gatling-seconds 0 to run without it");
        }
        if (o.placement.equals(io.argus.perf.load.run.Placement.SEPARATE)) {
            int cpus = Runtime.getRuntime().availableProcessors();
            if (cpus < 2) {
                problems.add("--placement separate needs at least 2 CPUs (targets on one, collector and load on "
                        + "another); this machine has " + cpus + ": use --placement shared");
            } else if (!io.argus.perf.harness.proc.Taskset.available()) {
                problems.add("--placement separate pins processes with taskset, which does not run here: install "
                        + "util-linux (Debian/Ubuntu: apt-get install util-linux) or use --placement shared");
            }
        }
        String where = home.root() == null ? "no Argus distribution found" : home.root().toString();
        if (!argus.isEmpty() && !home.hasAgent()) {
            problems.add("scenarios " + argus + " need the Argus agent at <argus-home>/agent/argus-agent.jar ("
                    + where + "); build it with 'mvn -DskipTests package' or pass --argus-home DIR");
        }
        if (!collector.isEmpty() && !home.hasCollector()) {
            problems.add("scenarios " + collector + " need the collector at <argus-home>/collector/bin/argus-collector ("
                    + where + "); build it with 'mvn -DskipTests package' or pass --argus-home DIR");
        }
        return problems;
    }

    /** The headline table as plain text for the console. */
    static String headline(RunResults r) {
        String md = io.argus.perf.load.report.MarkdownReport.render(r);
        int start = md.indexOf("## Headline");
        int end = md.indexOf("## ", start + 3);
        return md.substring(start, end < 0 ? md.length() : end).trim();
    }
}
