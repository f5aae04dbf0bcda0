package io.argus.perf.load.run;

import io.argus.perf.harness.http.RequestSpec;
import io.argus.cluster.process.ManagedProcess;
import io.argus.perf.load.gatling.OverheadSimulation;
import io.argus.perf.load.model.RunResults.Gatling;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Runs {@link OverheadSimulation} in a child JVM ({@code io.gatling.app.Gatling}) and reads its
 * figures back.
 *
 * <p>Gatling 3.15 writes no stats.json any more, its {@code js/stats.js} holds only UI code, and
 * {@code simulation.log} is binary. The figures are therefore read from the generated report's
 * {@code index.html}: the statistics table's header ({@code <th id="col-N">} labels such as
 * "Total", "Cnt/s", "95th pct") is mapped to the cells of the "All Requests" row
 * ({@code <tr id="ROOT">}, {@code <td class="value ... col-N">}), so a reordering of columns does
 * not break it. If that fails, the "Global Information" summary Gatling prints on stdout is parsed
 * instead; {@link Gatling#source} says which one was used. Gatling's times are whole milliseconds.
 */
public final class GatlingRunner {

    /** By name: the harness may not have Gatling on its own class path. */
    static final String SIMULATION = "io.argus.perf.load.gatling.OverheadSimulation";

    private final Path java;
    private final String classPath;
    private final List<String> prefix;

    /**
     * @param java      the java that runs Gatling (the harness's own by default)
     * @param classPath Gatling's class path, from {@link #findClassPath}
     */
    public GatlingRunner(Path java, String classPath) {
        this(java, classPath, List.of());
    }

    /** @param prefix put before Gatling's command, e.g. {@code taskset -c 1} ({@link Placement#loadPrefix}) */
    public GatlingRunner(Path java, String classPath, List<String> prefix) {
        this.java = java;
        this.classPath = classPath;
        this.prefix = List.copyOf(prefix);
    }

    /**
     * Gatling's class path: the harness's own when Gatling is on it (running from the source tree,
     * target/lib), else the suite's jar plus a {@code gatling/} folder of Gatling's jars with its own
     * Netty 4.2 ({@code <argus-home>/perf/gatling/lib} or {@code <peers>/gatling}, where the build
     * puts it). Null when there is none.
     */
    public static String findClassPath(Path argusHome, Path peersDir) {
        try {
            Class.forName("io.gatling.app.Gatling", false, GatlingRunner.class.getClassLoader());
            return System.getProperty("java.class.path");
        } catch (ClassNotFoundException | LinkageError notHere) {
            // look for the separate folder
        }
        List<Path> candidates = new ArrayList<>();
        if (argusHome != null) {
            candidates.add(argusHome.resolve("perf/gatling/lib"));
            candidates.add(argusHome.resolve("perf/gatling"));
        }
        if (peersDir != null) {
            candidates.add(peersDir.resolve("gatling"));
        }
        for (Path dir : candidates) {
            if (hasGatling(dir)) {
                return ownLocation() + File.pathSeparator + dir.toAbsolutePath().normalize() + "/*";
            }
        }
        return null;
    }

    private static boolean hasGatling(Path dir) {
        if (!Files.isDirectory(dir)) {
            return false;
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.anyMatch(f -> f.getFileName().toString().startsWith("gatling-app-"));
        } catch (IOException e) {
            return false;
        }
    }

    private static String ownLocation() {
        try {
            return Path.of(GatlingRunner.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (java.net.URISyntaxException | RuntimeException e) {
            throw new IllegalStateException("cannot tell where the suite's classes are", e);
        }
    }

    /** "Simulation ... started..." and "Parsing log file(s)...": the simulation's own time on Gatling's console. */
    static final Pattern SIMULATION_STARTED = Pattern.compile("^Simulation \\S+ started");
    static final Pattern SIMULATION_ENDED = Pattern.compile("^Parsing log file");

    /** Told when the simulation starts sending and when it is done, so that a measurement can cover just that. */
    public interface Window {
        void started();

        void ended();
    }

    public Gatling run(RequestSpec request, int users, int seconds, Path resultsDir, Path log, String description)
            throws IOException, InterruptedException {
        return run(request, users, seconds, resultsDir, log, description, null);
    }

    /**
     * @param window told when the simulation starts and ends (from Gatling's console); when a line is not seen,
     *               at Gatling's start and exit instead
     */
    public Gatling run(RequestSpec request, int users, int seconds, Path resultsDir, Path log, String description,
                       Window window) throws IOException, InterruptedException {
        Files.createDirectories(resultsDir);
        Gatling g = new Gatling();
        g.users = users;
        g.seconds = seconds;
        List<String> cmd = command(request, users, seconds, resultsDir, description);
        long start = System.nanoTime();
        ManagedProcess p = ManagedProcess.start("gatling", cmd, null, Map.of(), log,
                Map.of("started", SIMULATION_STARTED, "ended", SIMULATION_ENDED));
        try {
            if (window != null) {
                // the JVM's start-up (tens of seconds on a busy machine) is not the simulation's
                p.awaitMatch("started", 120_000);
                window.started();
                p.awaitMatch("ended", (seconds + 120L) * 1000);
                window.ended();
            }
            if (!p.process().waitFor(seconds + 240L, TimeUnit.SECONDS)) {
                g.error = "Gatling did not finish within " + (seconds + 240) + " s";
                return g;
            }
            g.exitCode = p.process().exitValue();
        } finally {
            p.stop(2000);
        }
        g.wallSeconds = (System.nanoTime() - start) / 1e9;
        Path report = newestReport(resultsDir);
        if (report != null) {
            g.reportDir = report.getParent().toString();
            g.reportIndex = report.toString();
            try {
                Map<String, Double> stats = parseIndexHtml(Files.readString(report));
                apply(g, stats);
                g.source = "index.html";
            } catch (RuntimeException | IOException e) {
                g.error = "could not read the report's statistics table: " + e.getMessage();
            }
        }
        if (g.source == null) {
            Map<String, Double> stats = parseConsole(Files.readString(log));
            if (stats.containsKey("Total")) {
                apply(g, stats);
                g.source = "console";
                g.error = null;
            } else if (g.error == null) {
                g.error = "Gatling exited with " + g.exitCode + " and left no readable report; see " + log;
            }
        }
        if (g.exitCode != null && g.exitCode != 0 && g.error == null) {
            g.error = "Gatling exited with " + g.exitCode + " (KO requests fail its run; see " + log + ")";
        }
        return g;
    }

    /** Gatling's command line: {@code <prefix> java <options> -cp <class path> io.gatling.app.Gatling -s ...}. */
    List<String> command(RequestSpec request, int users, int seconds, Path resultsDir, String description) {
        List<String> cmd = new ArrayList<>(prefix);
        cmd.add(java.toString());
        cmd.addAll(List.of("-Xms256m", "-Xmx1g", "-XX:+UseParallelGC", "-XX:MaxInlineLevel=20", "-XX:MaxTrivialSize=12",
                "--add-opens=java.base/java.lang=ALL-UNNAMED"));
        cmd.add("-D" + OverheadSimulation.URL + "=" + request.uri());
        cmd.add("-D" + OverheadSimulation.METHOD + "=" + request.method());
        if (request.body() != null) {
            cmd.add("-D" + OverheadSimulation.BODY + "=" + request.body());
            cmd.add("-D" + OverheadSimulation.CONTENT_TYPE + "=" + request.contentType());
            if (request.rising()) {
                cmd.add("-D" + OverheadSimulation.RISING_FROM + "=" + request.risingFrom());
            }
        }
        cmd.add("-D" + OverheadSimulation.USERS + "=" + users);
        cmd.add("-D" + OverheadSimulation.SECONDS + "=" + seconds);
        cmd.add("-cp");
        cmd.add(classPath);
        cmd.add("io.gatling.app.Gatling");
        cmd.addAll(List.of("-s", SIMULATION, "-rf", resultsDir.toAbsolutePath().toString(),
                // Gatling 3.11+ expects the run description Base64-encoded
                "-rd", Base64.getEncoder().encodeToString(description.getBytes(StandardCharsets.UTF_8))));
        return cmd;
    }

    private static void apply(Gatling g, Map<String, Double> s) {
        g.requests = Math.round(s.getOrDefault("Total", 0.0));
        g.ok = Math.round(s.getOrDefault("OK", 0.0));
        g.ko = Math.round(s.getOrDefault("KO", 0.0));
        g.qps = s.getOrDefault("Cnt/s", 0.0);
        g.minMs = s.getOrDefault("Min", 0.0);
        g.p50Ms = s.getOrDefault("50th pct", 0.0);
        g.p75Ms = s.getOrDefault("75th pct", 0.0);
        g.p95Ms = s.getOrDefault("95th pct", 0.0);
        g.p99Ms = s.getOrDefault("99th pct", 0.0);
        g.maxMs = s.getOrDefault("Max", 0.0);
        g.meanMs = s.getOrDefault("Mean", 0.0);
        g.stdDevMs = s.getOrDefault("Std Dev", 0.0);
        if (!s.containsKey("Total") || !s.containsKey("95th pct") || !s.containsKey("Cnt/s")) {
            throw new IllegalStateException("statistics incomplete: " + s.keySet());
        }
    }

    static Path newestReport(Path resultsDir) throws IOException {
        if (!Files.isDirectory(resultsDir)) {
            return null;
        }
        try (Stream<Path> dirs = Files.list(resultsDir)) {
            return dirs.map(d -> d.resolve("index.html")).filter(Files::isRegularFile)
                    .max(Comparator.comparing(p -> p.getParent().getFileName().toString())).orElse(null);
        }
    }

    private static final Pattern TH = Pattern.compile("<th\\s+id=\"col-(\\d+)\"[^>]*>(.*?)</th>", Pattern.DOTALL);
    private static final Pattern ROOT_ROW = Pattern.compile("<tr\\s+id=\"ROOT\"[^>]*>(.*?)</tr>", Pattern.DOTALL);
    private static final Pattern TD = Pattern.compile(
            "<td\\s+class=\"value[^\"]*\\bcol-(\\d+)\"[^>]*>\\s*([^<]*?)\\s*</td>", Pattern.DOTALL);
    private static final Pattern TAGS = Pattern.compile("<[^>]*>");

    /** The "All Requests" row of a Gatling 3.15 index.html, keyed by column label ("Total", "95th pct", ...). */
    public static Map<String, Double> parseIndexHtml(String html) {
        Map<String, String> labels = new HashMap<>();
        Matcher th = TH.matcher(html);
        while (th.find()) {
            labels.put(th.group(1), TAGS.matcher(th.group(2)).replaceAll("").trim());
        }
        Matcher row = ROOT_ROW.matcher(html);
        if (labels.isEmpty() || !row.find()) {
            throw new IllegalStateException("no statistics table (col-N headers and a ROOT row) in index.html");
        }
        Map<String, Double> out = new HashMap<>();
        Matcher td = TD.matcher(row.group(1));
        while (td.find()) {
            String label = labels.get(td.group(1));
            Double v = number(td.group(2));
            if (label != null && v != null) {
                out.put(label, v);
            }
        }
        if (out.isEmpty()) {
            throw new IllegalStateException("the ROOT row has no values");
        }
        return out;
    }

    private static final Pattern CONSOLE = Pattern.compile("^> (.+?)\\s*\\|\\s*([-\\d.,]+)\\s*\\|", Pattern.MULTILINE);
    private static final Map<String, String> CONSOLE_KEYS = Map.ofEntries(
            Map.entry("request count", "Total"), Map.entry("min response time (ms)", "Min"),
            Map.entry("max response time (ms)", "Max"), Map.entry("mean response time (ms)", "Mean"),
            Map.entry("response time std deviation (ms)", "Std Dev"),
            Map.entry("response time 50th percentile (ms)", "50th pct"),
            Map.entry("response time 75th percentile (ms)", "75th pct"),
            Map.entry("response time 95th percentile (ms)", "95th pct"),
            Map.entry("response time 99th percentile (ms)", "99th pct"),
            Map.entry("mean throughput (rps)", "Cnt/s"), Map.entry("mean requests/sec", "Cnt/s"));

    /** The last "Global Information" block Gatling printed (the Total column). */
    public static Map<String, Double> parseConsole(String console) {
        Map<String, Double> out = new HashMap<>();
        int at = console.lastIndexOf("Global Information");
        if (at < 0) {
            return out;
        }
        Matcher m = CONSOLE.matcher(console.substring(at));
        while (m.find()) {
            String key = CONSOLE_KEYS.get(m.group(1).trim().toLowerCase(Locale.ROOT));
            Double v = number(m.group(2));
            if (key != null && v != null) {
                out.put(key, v);
            }
        }
        return out;
    }

    private static Double number(String text) {
        String t = text.replace(",", "").trim();
        if (t.isEmpty() || t.equals("-")) {
            return null;
        }
        try {
            return Double.parseDouble(t);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
