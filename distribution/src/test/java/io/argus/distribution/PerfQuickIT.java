package io.argus.distribution;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Runs the overhead suite as a user would: {@code perf/bin/argus-perf --quick} from the assembled
 * distribution ({@code argus.home}), every scenario on the sample target, then checks that every
 * scenario ran and produced its samples (start-up observed where the agent traces, CPU and allocation
 * per round, the MooBench check), that results.json has the expected structure and that report.md and
 * report.html hold every section and chart. No performance thresholds: the figures of a quick run on a
 * shared 2-core machine mean little. One start-up pass instead of the preset's two (with the load launch, two
 * start-up samples a scenario) keeps the CI run under its time budget.
 */
class PerfQuickIT {

    static final List<String> SCENARIOS = List.of("baseline", "jvm-only", "default-0", "default-100",
            "default-100-deferred", "otel", "otel-otlp", "elastic");
    /** Whose start-up is measured until observed: the agent exports a sampled caller's trace to the run's collector. */
    static final List<String> OBSERVABLE = List.of("default-0", "default-100", "default-100-deferred", "otel-otlp");
    static final List<String> SECTIONS = List.of("Headline", "Method", "Machine", "Scenarios and agent settings",
            "Startup", "Cost per request", "Regression checks", "Closed loop", "Gatling", "Resources", "Collector",
            "Statistics vs baseline", "Errors and outliers");
    static final List<String> CHARTS = List.of("chart-startup", "chart-latency", "chart-qps-rounds", "chart-cpu");
    static final long TIMEOUT_MINUTES = 14;

    @Test
    void quickRunOfEveryScenario() throws Exception {
        Path home = Path.of(System.getProperty("argus.home", "target/argus")).toAbsolutePath();
        Path script = home.resolve("perf/bin/argus-perf");
        assertThat(script).as("the launcher in the distribution").isExecutable();
        Path out = home.getParent().resolve("perf-quick-it");
        deleteRecursively(out);
        Files.createDirectories(out);
        Path console = out.resolve("console.log");

        ProcessBuilder pb = new ProcessBuilder(script.toString(), "--quick", "--startup-runs", "1", "--out", out.toString())
                .redirectErrorStream(true).redirectOutput(console.toFile());
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        Process p = pb.start();
        boolean finished;
        try {
            finished = p.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES);
        } finally {
            if (p.isAlive()) {
                // SIGTERM lets the harness's shutdown hook kill its targets, collectors and Gatling
                p.destroy();
                if (!p.waitFor(20, TimeUnit.SECONDS)) {
                    p.descendants().forEach(ProcessHandle::destroyForcibly);
                    p.destroyForcibly();
                }
            }
        }
        String log = Files.readString(console);
        if (!finished) {
            fail("argus-perf --quick did not finish within " + TIMEOUT_MINUTES + " min; output:\n" + tail(log));
        }
        assertThat(p.exitValue()).as("exit code of argus-perf --quick; output:\n" + tail(log)).isZero();
        checkOutput(out, log);
    }

    /** Checks a finished quick run's console output and report folder. */
    static void checkOutput(Path out, String log) throws IOException {
        assertThat(log).contains("## Headline");

        // ------------------------------------------------------------------ results.json
        Object parsed = Json.parse(Files.readString(out.resolve("results.json")));
        Map<String, Object> root = map(parsed);
        assertThat(root.get("schema")).isEqualTo("argus-perf/1");
        Map<String, Object> settings = map(root.get("settings"));
        assertThat(settings.get("mode")).isEqualTo("quick");
        int rounds = num(settings.get("rounds")).intValue();
        int roundSize = num(settings.get("roundSize")).intValue();
        int discard = num(settings.get("discardRounds")).intValue();
        int startupRuns = num(settings.get("startupRuns")).intValue();
        assertThat(rounds).isGreaterThan(discard);
        assertThat(num(map(root.get("machine")).get("cores")).intValue()).isPositive();

        List<Object> scenarios = list(root.get("scenarios"));
        List<String> names = new ArrayList<>();
        for (Object o : scenarios) {
            names.add((String) map(o).get("name"));
        }
        assertThat(names).containsExactlyElementsOf(SCENARIOS);

        for (Object o : scenarios) {
            Map<String, Object> s = map(o);
            String name = (String) s.get("name");
            assertThat(s.get("status")).as(name + " status; errors " + s.get("errors")).isEqualTo("ok");

            List<Object> startup = list(s.get("startup"));
            // the start-up-only launches, then the load launch (one pass in --quick), each a start-up sample
            assertThat(startup).as(name + " startup launches").hasSize(startupRuns + 1);
            assertThat(startup).extracting(l -> map(l).get("phase")).as(name + " launch phases")
                    .containsOnly("startup", "load").containsOnlyOnce("load");
            for (Object l : startup) {
                Map<String, Object> launch = map(l);
                assertThat(launch.get("error")).as(name + " launch error").isNull();
                List<Object> procs = list(launch.get("processes"));
                assertThat(procs).as(name + " processes").hasSize(2);
                for (Object po : procs) {
                    Map<String, Object> proc = map(po);
                    assertThat(num(proc.get("readyMs")).doubleValue()).as(name + " readyMs").isPositive();
                    assertThat(proc.get("startedLogMs")).as(name + " 'Started @' value").isNotNull();
                    assertThat(num(proc.get("classesAtReady")).longValue()).as(name + " classes loaded at ready")
                            .isGreaterThan(1000L);
                    if (name.equals("jvm-only") || name.startsWith("default-")) {
                        assertThat(proc.get("agentInitMs")).as(name + " Argus start line").isNotNull();
                    }
                    if (OBSERVABLE.contains(name)) {
                        // observed within the bound, never before ready
                        assertThat(proc.get("observation")).as(name + " observation").isEqualTo("observed");
                        assertThat(num(proc.get("observedMs")).doubleValue()).as(name + " observed")
                                .isGreaterThanOrEqualTo(num(proc.get("readyMs")).doubleValue());
                        assertThat((String) proc.get("observedTraceId")).hasSize(32);
                    } else {
                        assertThat(proc.get("observedMs")).as(name + " is not observable").isNull();
                    }
                    if (name.equals("default-0") || name.equals("default-100")) {
                        // the default start-up observes from the first request on
                        assertThat(num(proc.get("probesUnobserved")).intValue()).as(name + " unobserved requests").isZero();
                    }
                }
                assertThat(launch.get("totalObservedMs") != null).as(name + " total observed").isEqualTo(OBSERVABLE.contains(name));
            }
            assertThat(s.get("observable")).isEqualTo(OBSERVABLE.contains(name));

            Map<String, Object> closed = map(s.get("closedLoop"));
            List<Object> rs = list(closed.get("rounds"));
            assertThat(rs).as(name + " rounds").hasSize(rounds);
            for (int i = 0; i < rs.size(); i++) {
                Map<String, Object> round = map(rs.get(i));
                assertThat(round.get("discarded")).as(name + " round " + (i + 1) + " discarded").isEqualTo(i < discard);
                assertThat(num(round.get("requests")).intValue()).isEqualTo(roundSize);
                assertThat(list(round.get("latenciesUs"))).as(name + " raw latencies").hasSize(roundSize);
                for (String f : List.of("minMs", "maxMs", "avgMs", "p95Ms", "p99Ms", "totalMs", "qps")) {
                    assertThat(num(round.get(f)).doubleValue()).as(name + " round " + (i + 1) + " " + f).isPositive();
                }
                assertThat(num(round.get("errors")).intValue()).as(name + " errors").isZero();
                // every round is a sample of CPU and allocation per request, per process
                Map<String, Object> cpu = map(round.get("cpuMs"));
                Map<String, Object> allocated = map(round.get("allocatedBytes"));
                assertThat(cpu.keySet()).as(name + " CPU per round").containsExactlyInAnyOrder("front", "back");
                assertThat(allocated.keySet()).as(name + " allocation per round").containsExactlyInAnyOrder("front", "back");
                for (String svc : List.of("front", "back")) {
                    assertThat(num(cpu.get(svc)).doubleValue()).as(name + " " + svc + " CPU").isPositive();
                    assertThat(num(allocated.get(svc)).longValue()).as(name + " " + svc + " bytes").isPositive();
                }
                if (name.equals("default-100") || name.equals("otel-otlp")) {
                    assertThat(num(round.get("collectorCpuMs")).doubleValue()).as(name + " collector CPU").isPositive();
                }
            }

            Map<String, Object> gatling = map(s.get("gatling"));
            assertThat(gatling.get("error")).as(name + " Gatling error").isNull();
            assertThat(gatling.get("source")).as(name + " Gatling figures read").isNotNull();
            assertThat(num(gatling.get("requests")).longValue()).as(name + " Gatling requests").isPositive();
            assertThat(num(gatling.get("qps")).doubleValue()).as(name + " Gatling QPS").isPositive();
            assertThat(out.resolve((String) gatling.get("reportIndex"))).as(name + " Gatling HTML report").isRegularFile();

            List<Object> resources = list(s.get("resources"));
            assertThat(resources).as(name + " resources").hasSize(2);
            for (Object ro : resources) {
                Map<String, Object> res = map(ro);
                assertThat(num(res.get("vmHwmKb")).longValue()).as(name + " peak RSS").isPositive();
                assertThat(num(res.get("threads")).intValue()).as(name + " threads").isPositive();
                assertThat(num(res.get("cpuMsTotal")).doubleValue()).as(name + " CPU").isPositive();
                assertThat(num(res.get("allocBytesPerRequest")).doubleValue()).as(name + " allocation").isPositive();
                assertThat(num(res.get("gatlingCpuUsPerRequest")).doubleValue()).as(name + " Gatling CPU").isPositive();
            }

            if (name.equals("default-100") || name.equals("otel-otlp")) {
                Map<String, Object> c = map(s.get("collector"));
                assertThat(num(c.get("tracesStored")).longValue()).as("traces the collector stored at sampling 100%; "
                        + c.get("detail")).isPositive();
                assertThat(list(c.get("services"))).as("services the collector knows").contains("front", "back");
            }
            if (name.equals("default-0")) {
                // at 0% only the start-up probes and polls are traced: each carries a sampled traceparent of its own
                Map<String, Object> c = map(s.get("collector"));
                assertThat(num(c.get("tracesStored")).longValue()).as("traces stored at sampling 0%")
                        .isPositive().isLessThanOrEqualTo(num(c.get("probeRequests")).longValue());
            }
        }

        List<Object> comparisons = list(root.get("comparisons"));
        assertThat(comparisons).hasSize(SCENARIOS.size() - 1);
        for (Object co : comparisons) {
            Map<String, Object> c = map(co);
            Map<String, Map<String, Object>> metrics = new LinkedHashMap<>();
            for (Object mo : list(c.get("metrics"))) {
                metrics.put((String) map(mo).get("metric"), map(mo));
            }
            assertThat(metrics).as(c.get("scenario") + " metrics").containsKeys("startupMs", "qps", "p95Ms", "p99Ms",
                    "gatlingQps", "cpuUsPerRequest", "cpuUsPerRequest.front", "cpuUsPerRequest.back",
                    "allocBytesPerRequest", "gatlingCpuUsPerRequest");
            if (OBSERVABLE.contains((String) c.get("scenario"))) {
                assertThat(metrics).containsKey("observedMs");
                assertThat(metrics.get("observedMs").get("versus")).isEqualTo("baseline startupMs");
            }
            for (String m : List.of("startupMs", "qps", "p99Ms", "cpuUsPerRequest")) {
                assertThat(metrics.get(m).get("ratio")).as(c.get("scenario") + " " + m + " ratio").isNotNull();
                assertThat(metrics.get(m).get("ratioEstimate")).as(c.get("scenario") + " " + m + " HL ratio").isNotNull();
                assertThat(metrics.get(m).get("pValue")).as(c.get("scenario") + " " + m + " p").isNotNull();
                assertThat(metrics.get(m).get("verdict")).isNotNull();
            }
            for (Map<String, Object> m : metrics.values()) {
                // a quick run's samples are too few to decide anything: never a PASS on two rounds
                if ("PASS".equals(m.get("verdict"))) {
                    assertThat(num(m.get("n")).intValue()).as(c.get("scenario") + " " + m.get("metric") + " passed on")
                            .isGreaterThanOrEqualTo(4);
                }
                if ("INCONCLUSIVE".equals(m.get("verdict")) && m.get("samplesToDecide") != null) {
                    assertThat(num(m.get("samplesToDecide")).intValue()).isGreaterThan(num(m.get("n")).intValue());
                }
            }
        }

        // the per-call regression check ran and gave the portions I and C
        Map<String, Object> moo = map(root.get("moobench"));
        assertThat(moo.get("error")).as("MooBench check error").isNull();
        assertThat(map(moo.get("perCallMedianNs")).keySet()).containsExactly("I", "C");
        assertThat(out.resolve("moobench/moobench.md")).isRegularFile();

        // ------------------------------------------------------------------ report.md / report.html
        String md = Files.readString(out.resolve("report.md"));
        for (String section : SECTIONS) {
            assertThat(md).as("report.md section").contains("\n## " + section + "\n");
        }
        for (String name : SCENARIOS) {
            assertThat(md).contains("| " + name + " |").contains("### " + name);
        }
        assertThat(md).contains("### Start-up footprint", "### Per-call cost (MooBench)", "× baseline ready [95% CI]",
                "ready only: no agent");
        String html = Files.readString(out.resolve("report.html"));
        assertThat(html).contains("<!DOCTYPE html>").doesNotContain("<script");
        for (String chart : CHARTS) {
            assertThat(html).as("report.html chart").contains("<svg id=\"" + chart + "\"");
        }
        for (String section : SECTIONS) {
            assertThat(html).contains(">" + section + "</h2>");
        }
        assertThat(countOf(html, "<svg ")).isEqualTo(countOf(html, "</svg>"));
    }

    // ---------------------------------------------------------------------------------------------

    private static String tail(String log) {
        String[] lines = log.split("\n");
        return String.join("\n", java.util.Arrays.asList(lines).subList(Math.max(0, lines.length - 60), lines.length));
    }

    private static int countOf(String s, String part) {
        int n = 0;
        for (int i = s.indexOf(part); i >= 0; i = s.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o) {
        assertThat(o).isInstanceOf(Map.class);
        return (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object o) {
        assertThat(o).isInstanceOf(List.class);
        return (List<Object>) o;
    }

    private static Number num(Object o) {
        assertThat(o).isInstanceOf(Number.class);
        return (Number) o;
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    /** A minimal JSON reader (objects, arrays, strings, numbers, true/false/null), so the test needs no library. */
    static final class Json {
        private final String s;
        private int i;

        private Json(String s) {
            this.s = s;
        }

        static Object parse(String text) {
            Json j = new Json(text);
            Object v = j.value();
            j.ws();
            if (j.i != j.s.length()) {
                throw new IllegalArgumentException("trailing data at " + j.i);
            }
            return v;
        }

        private Object value() {
            ws();
            char c = s.charAt(i);
            switch (c) {
                case '{': {
                    i++;
                    Map<String, Object> m = new LinkedHashMap<>();
                    ws();
                    if (s.charAt(i) == '}') {
                        i++;
                        return m;
                    }
                    while (true) {
                        ws();
                        String k = string();
                        ws();
                        expect(':');
                        m.put(k, value());
                        ws();
                        if (s.charAt(i) == ',') {
                            i++;
                        } else {
                            expect('}');
                            return m;
                        }
                    }
                }
                case '[': {
                    i++;
                    List<Object> l = new ArrayList<>();
                    ws();
                    if (s.charAt(i) == ']') {
                        i++;
                        return l;
                    }
                    while (true) {
                        l.add(value());
                        ws();
                        if (s.charAt(i) == ',') {
                            i++;
                        } else {
                            expect(']');
                            return l;
                        }
                    }
                }
                case '"':
                    return string();
                case 't':
                    return literal("true", Boolean.TRUE);
                case 'f':
                    return literal("false", Boolean.FALSE);
                case 'n':
                    return literal("null", null);
                default:
                    return number();
            }
        }

        private String string() {
            expect('"');
            StringBuilder b = new StringBuilder();
            while (true) {
                char c = s.charAt(i++);
                if (c == '"') {
                    return b.toString();
                }
                if (c == '\\') {
                    char e = s.charAt(i++);
                    switch (e) {
                        case 'n' -> b.append('\n');
                        case 't' -> b.append('\t');
                        case 'r' -> b.append('\r');
                        case 'b' -> b.append('\b');
                        case 'f' -> b.append('\f');
                        case 'u' -> {
                            b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                            i += 4;
                        }
                        default -> b.append(e);
                    }
                } else {
                    b.append(c);
                }
            }
        }

        private Number number() {
            int start = i;
            while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) {
                i++;
            }
            String t = s.substring(start, i);
            if (t.isEmpty()) {
                throw new IllegalArgumentException("unexpected '" + s.charAt(start) + "' at " + start);
            }
            if (t.contains(".") || t.contains("e") || t.contains("E")) {
                return Double.parseDouble(t);
            }
            return Long.parseLong(t);
        }

        private Object literal(String word, Object v) {
            if (!s.startsWith(word, i)) {
                throw new IllegalArgumentException("bad literal at " + i);
            }
            i += word.length();
            return v;
        }

        private void expect(char c) {
            if (s.charAt(i) != c) {
                throw new IllegalArgumentException("expected '" + c + "' at " + i + " but got '" + s.charAt(i) + "'");
            }
            i++;
        }

        private void ws() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
        }
    }
}
