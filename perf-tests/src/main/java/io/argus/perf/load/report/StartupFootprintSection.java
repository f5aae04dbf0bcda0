package io.argus.perf.load.report;

import io.argus.perf.harness.report.Fmt;
import io.argus.perf.harness.report.Markdown;
import io.argus.perf.harness.report.Section;
import io.argus.perf.load.Scenario;
import io.argus.perf.load.model.RunResults;
import io.argus.perf.load.model.RunResults.ProcessStartup;
import io.argus.perf.load.model.RunResults.ScenarioResult;
import io.argus.perf.load.model.RunResults.StartupLaunch;

import java.util.LinkedHashSet;
import java.util.Properties;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The start-up regression check: per Argus scenario and process, the classes the agent adds by the
 * time the process is ready and the CPU it adds by then (medians, minus the baseline's medians of
 * the same run), each beside the previous release's figure from {@value #PREVIOUS}. Class counts
 * and CPU time are barely moved by other load on the machine, unlike wall time. A figure, not a
 * verdict: a change is for the reader to explain.
 */
final class StartupFootprintSection implements Section<RunResults> {

    static final String PREVIOUS = "startup-previous.properties";
    static final String TITLE = "Start-up footprint";
    private static final Pattern JAVA_MAJOR = Pattern.compile("version \"(\\d+)");

    private static final Function<ProcessStartup, Double> CLASSES =
            p -> p.classesAtReady == null ? null : p.classesAtReady.doubleValue();
    private static final Function<ProcessStartup, Double> CLASSES_UP =
            p -> p.classesAtAgentUp == null ? null : p.classesAtAgentUp.doubleValue();

    private final Properties previous;

    StartupFootprintSection() {
        this(PreviousFigures.load(PREVIOUS));
    }

    StartupFootprintSection(Properties previous) {
        this.previous = previous;
    }

    @Override
    public void render(RunResults r, Markdown md) {
        md.line("### " + TITLE);
        md.line("");
        ScenarioResult base = r.scenario("baseline");
        if (base == null) {
            md.line("No baseline scenario in this run: the agent's own classes and CPU cannot be told apart.");
            md.line("");
            return;
        }
        String jdk = javaMajor(r.machine.targetJava);
        md.line("Added by the agent by the time each process was ready: loaded classes (the JVM's `"
                + "java.cls.loadedClasses` and `java.cls.sharedLoadedClasses` counters) and CPU ms (user + system), each the scenario's median minus the"
                + " baseline's. \"Previous\" is the previous release's figure (`perf-tests/src/main/resources/"
                + "io/argus/perf/load/report/" + PREVIOUS + "`, key `" + r.settings.target + ".<scenario>.<process>.jdk"
                + jdk + ".classes|cpuMs`); not a pass/fail check. The agent starts after the application, so the last"
                + " two columns give the same figures once it was up (its start line), minus the baseline's at ready:"
                + " its whole start-up footprint, an upper bound, as the application goes on meanwhile.");
        md.line("");
        md.row("Scenario", "Process", "Agent classes", "Previous", "Change", "Agent CPU ms at ready", "Previous", "Change",
                "Classes when up", "CPU ms when up");
        md.sep(10);
        for (ScenarioResult s : r.scenarios) {
            Scenario scenario = Scenario.byName(s.name);
            if (scenario == null || !scenario.isArgus()) {
                continue;
            }
            for (String svc : services(s)) {
                double classes = added(s, base, svc, CLASSES);
                double cpu = added(s, base, svc, p -> p.cpuMsAtReady);
                double classesUp = StartupSection.median(s, svc, CLASSES_UP) - StartupSection.median(base, svc, CLASSES);
                double cpuUp = StartupSection.median(s, svc, p -> p.cpuMsAtAgentUp)
                        - StartupSection.median(base, svc, p -> p.cpuMsAtReady);
                String key = r.settings.target + "." + s.name + "." + svc + ".jdk" + jdk + ".";
                Double prevClasses = number(previous.getProperty(key + "classes"));
                Double prevCpu = number(previous.getProperty(key + "cpuMs"));
                md.row(s.name, svc, Fmt.num(classes, 0), prevClasses == null ? Fmt.NONE : Fmt.num(prevClasses, 0),
                        change(classes, prevClasses), Fmt.num(cpu, 0), prevCpu == null ? Fmt.NONE : Fmt.num(prevCpu, 0),
                        change(cpu, prevCpu), Fmt.num(classesUp, 0), Fmt.num(cpuUp, 0));
            }
        }
        md.line("");
    }

    private static double added(ScenarioResult s, ScenarioResult base, String service,
                                Function<ProcessStartup, Double> value) {
        return StartupSection.median(s, service, value) - StartupSection.median(base, service, value);
    }

    static String javaMajor(String targetJava) {
        Matcher m = JAVA_MAJOR.matcher(targetJava == null ? "" : targetJava);
        return m.find() ? m.group(1) : "?";
    }

    private static String change(double now, Double before) {
        if (Double.isNaN(now) || before == null) {
            return Fmt.NONE;
        }
        double delta = now - before;
        String sign = delta >= 0 ? "+" : "−";
        String ratio = before > 0 ? " (×" + Fmt.num(now / before, 2) + ")" : "";
        return sign + Fmt.num(Math.abs(delta), 0) + ratio;
    }

    private static Double number(String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            return Double.parseDouble(value.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static Set<String> services(ScenarioResult s) {
        Set<String> services = new LinkedHashSet<>();
        for (StartupLaunch l : s.startup) {
            for (ProcessStartup p : l.processes) {
                if (p.instrumented) {
                    services.add(p.service);
                }
            }
        }
        return services;
    }
}
