package io.argus.perf.moobench;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.perf.harness.FileTrees;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs in the distribution module's failsafe phase, against the assembled {@code argus.home}. {@code --quick}: every configuration runs in a real forked JVM with the real agent (and, for
 * T+I+C+W, a real collector), and the report is complete. No performance assertion.
 *
 * <p>Inputs, each from a system property or else guessed from the source tree (the test skips,
 * saying what is missing, when one cannot be found):
 * <ul>
 *   <li>the agent: {@code argus.moobench.agent.dir}, else {@code argus.home}/agent when it holds the
 *       method plugin, else {@code ../agent-plugins/method/target/agent} (built by that module's
 *       {@code mvn verify});</li>
 *   <li>the collector: {@code argus.home} (the distribution, {@code collector/bin/argus-collector}),
 *       else {@code ../distribution/target/argus}, else the class path in
 *       {@code argus.moobench.collector.classpath};</li>
 *   <li>the OpenTelemetry agent (optional: without it the two peer configurations are left out):
 *       {@code argus.moobench.otel.agent}, else {@code argus.home}/perf/peers/, else
 *       {@code target/peers/opentelemetry-javaagent.jar}.</li>
 * </ul>
 */
class MooBenchQuickIT {

    static final List<String> SECTIONS = List.of("Nanoseconds per instrumented call", "Throughput (traces per second)",
            "Response time of one trace (ns)", "Time series", "Recursion depth", "Spans", "Every JVM", "Setup");

    @Test
    void quickRunOfEveryConfiguration() throws Exception {
        Path home = Path.of(System.getProperty("argus.home", "../distribution/target/argus")).toAbsolutePath().normalize();
        Path agent = agentDir(home);
        Assumptions.assumeTrue(agent != null, "no agent with the method plugin: build agent-plugins/method (mvn verify)"
                + " or set -Dargus.moobench.agent.dir / -Dargus.home");
        List<String> args = new ArrayList<>(List.of("--quick", "--agent-dir", agent.toString()));
        if (Files.isRegularFile(home.resolve("collector/bin/argus-collector"))) {
            args.addAll(List.of("--argus-home", home.toString()));
        } else {
            String cp = System.getProperty("argus.moobench.collector.classpath");
            Assumptions.assumeTrue(cp != null && !cp.isBlank(), "no collector: build the distribution ("
                    + home + "/collector/bin/argus-collector) or set -Dargus.moobench.collector.classpath");
            args.addAll(List.of("--collector-classpath", cp));
        }
        Path otel = otelAgent(home);
        List<String> expected = new ArrayList<>(List.of("T", "T+I", "T+I+C", "T+I+C+W"));
        if (otel != null) {
            args.addAll(List.of("--otel-agent", otel.toString()));
            expected.addAll(List.of("otel-off", "otel-on"));
        }
        args.addAll(List.of("--configs", String.join(",", expected)));
        Path out = Path.of("target/moobench-quick").toAbsolutePath();
        FileTrees.deleteRecursively(out);
        args.addAll(List.of("--out", out.toString()));

        ByteArrayOutputStream console = new ByteArrayOutputStream();
        int status;
        try (PrintStream ps = new PrintStream(console, true, StandardCharsets.UTF_8)) {
            status = new MooBenchMain(MooBenchOptions.parse(args.toArray(new String[0])), ps).run();
        }
        String printed = console.toString(StandardCharsets.UTF_8);
        System.out.println(printed);
        assertThat(status).as("exit status; console:\n" + printed).isZero();

        JsonNode root = MooBenchMain.JSON.readTree(out.resolve("moobench.json").toFile());
        assertThat(root.path("schema").asText()).isEqualTo(MooResults.SCHEMA);
        assertThat(root.path("settings").path("quick").asBoolean()).isTrue();
        assertThat(root.path("failures")).isEmpty();
        List<String> ran = new ArrayList<>();
        for (JsonNode c : root.path("configs")) {
            ran.add(c.path("name").asText());
            assertThat(c.path("runs")).as(c.path("name").asText()).hasSize(1);
            JsonNode run = c.path("runs").get(0);
            assertThat(run.path("ok").asBoolean()).as(run.toString()).isTrue();
            assertThat(run.path("calls").asLong()).isEqualTo(200_000);
            assertThat(run.path("binMeansNs")).hasSize(1000);
            assertThat(c.path("throughput").path("mean").asDouble()).isPositive();
            assertThat(c.path("response").path("median").asDouble()).isPositive();
        }
        assertThat(ran).containsExactlyElementsOf(expected);
        // collecting and writing really built a span per instrumented call (most may be dropped)
        for (String name : List.of("T+I+C", "T+I+C+W")) {
            JsonNode counters = config(root, name).path("runs").get(0).path("counters");
            long spans = counters.path("argus.sentSpans").asLong() + counters.path("argus.droppedSpans").asLong();
            assertThat(spans).as(name + " spans").isGreaterThan(200_000L * 10 - 70_000);
        }
        assertThat(config(root, "T+I+C+W").path("runs").get(0).path("counters").path("collector.spansReceived").asLong())
                .as("spans the collector received").isPositive();
        assertThat(root.path("depthSeries")).hasSize(2 * 4);
        for (JsonNode c : root.path("depthSeries")) {
            assertThat(c.path("response").path("mean").asDouble()).as(c.path("name") + "@" + c.path("depth")).isPositive();
        }

        String md = Files.readString(out.resolve("moobench.md"));
        for (String section : SECTIONS) {
            assertThat(md).contains("\n## " + section + "\n");
        }
        assertThat(md).contains("| I | ", "| C | ", "| W | ", "| Median |", "R²");
        for (String svg : List.of("timeline.svg", "depth.svg")) {
            var doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(out.resolve(svg).toFile());
            assertThat(doc.getDocumentElement().getNodeName()).isEqualTo("svg");
        }
        assertThat(printed).contains("portion I:", "portion C:", "portion W:");
    }

    private static JsonNode config(JsonNode root, String name) {
        for (JsonNode c : root.path("configs")) {
            if (c.path("name").asText().equals(name)) {
                return c;
            }
        }
        throw new AssertionError("no configuration " + name);
    }

    private static Path agentDir(Path home) throws Exception {
        List<Path> candidates = new ArrayList<>();
        String given = System.getProperty("argus.moobench.agent.dir");
        if (given != null) {
            candidates.add(Path.of(given));
        }
        candidates.add(home.resolve("agent"));
        candidates.add(Path.of("../agent-plugins/method/target/agent"));
        for (Path c : candidates) {
            Path dir = c.toAbsolutePath().normalize();
            if (Files.isRegularFile(dir.resolve("argus-agent.jar")) && MooBenchMain.methodPluginIn(dir) != null) {
                return dir;
            }
        }
        return null;
    }

    private static Path otelAgent(Path home) {
        List<Path> candidates = new ArrayList<>();
        String given = System.getProperty("argus.moobench.otel.agent");
        if (given != null) {
            candidates.add(Path.of(given));
        }
        candidates.add(home.resolve("perf/peers/opentelemetry-javaagent.jar"));
        candidates.add(Path.of("target/peers/opentelemetry-javaagent.jar"));
        return candidates.stream().map(p -> p.toAbsolutePath().normalize()).filter(Files::isRegularFile).findFirst().orElse(null);
    }
}
