package io.argus.collector.otlp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.collector.Collector;
import io.argus.collector.CollectorConfig;
import io.argus.collector.testing.Api;
import io.argus.collector.testing.TestConfigs;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The OpenTelemetry Python SDK's default exporter (OTLP over gRPC, grpcio) sends a span and a histogram to the
 * collector's OTLP/gRPC receiver. The SDK is installed with pip into a virtualenv under {@code target/} the first
 * time (about half a minute; later runs reuse it); {@code -Dargus.otel.python=/path/to/python} uses one that already
 * has {@code opentelemetry-sdk} and {@code opentelemetry-exporter-otlp-proto-grpc}.
 */
class OtlpGrpcPythonTest {
    /** The PyPI versions installed (both packages release together). */
    static final String OTEL_PYTHON_VERSION = "1.45.2";

    @TempDir
    Path dir;

    @Test
    void pythonSdkDefaultExporterReachesTheGrpcReceiver() throws Exception {
        String python = python();
        Path script = dir.resolve("grpc_export.py");
        try (InputStream in = OtlpGrpcPythonTest.class.getResourceAsStream("/otlp/grpc_export.py")) {
            Files.write(script, in.readAllBytes());
        }
        try (Collector collector = Collector.start(TestConfigs.ephemeral().otlpGrpcPort(CollectorConfig.ANY_FREE_PORT)
                .dataDir(dir.resolve("data")).build())) {
            ProcessBuilder pb = new ProcessBuilder(python, script.toString()).redirectErrorStream(true);
            pb.environment().put("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:" + collector.otlpGrpcPort());
            pb.environment().put("OTEL_EXPORTER_OTLP_INSECURE", "true");
            List<String> out = run(pb, Duration.ofMinutes(2));
            assertThat(out).as("script output").contains("flushed=True");
            String traceId = out.stream().filter(l -> l.startsWith("trace_id=")).findFirst().orElseThrow()
                    .substring("trace_id=".length());

            assertThat(collector.flush(Duration.ofSeconds(10))).isTrue();
            Api api = new Api(collector);
            JsonNode span = api.json("/api/traces/" + traceId).get("spans").get(0);
            assertThat(span.get("service").asText()).isEqualTo("py-grpc");
            assertThat(span.get("instance").asText()).isEqualTo("py-1");
            assertThat(span.get("kind").asText()).isEqualTo("SERVER");
            assertThat(span.get("status").asText()).isEqualTo("ERROR");
            assertThat(span.get("tags").get("http.route").asText()).isEqualTo("/py/orders/{id}");
            JsonNode cells = api.json("/api/metrics/http?service=py-grpc&kind=server");
            assertThat(cells.findValuesAsText("target")).containsExactlyInAnyOrder("/py/orders/{id}", "/py/items");
            assertThat(OtlpSdkTest.agentIn(api, "py-grpc").get("agentVersion").asText())
                    .startsWith("otlp (opentelemetry");
        }
    }

    /** A Python with the SDK: the one named by {@code argus.otel.python}, or a virtualenv made (once) here. */
    static String python() throws Exception {
        String given = System.getProperty("argus.otel.python");
        if (given != null && !given.isBlank()) {
            return given;
        }
        Path venv = Path.of("target", "otel-python-" + OTEL_PYTHON_VERSION).toAbsolutePath();
        Path python = venv.resolve("bin/python");
        Path done = venv.resolve(".installed");
        if (!Files.exists(done)) {
            List<String> made = run(new ProcessBuilder("python3", "-m", "venv", "--clear", venv.toString())
                    .redirectErrorStream(true), Duration.ofMinutes(2));
            assertThat(Files.isExecutable(python)).as("python3 -m venv: %s", made).isTrue();
            List<String> pip = run(new ProcessBuilder(python.toString(), "-m", "pip", "install", "-q",
                    "--disable-pip-version-check", "opentelemetry-sdk==" + OTEL_PYTHON_VERSION,
                    "opentelemetry-exporter-otlp-proto-grpc==" + OTEL_PYTHON_VERSION).redirectErrorStream(true),
                    Duration.ofMinutes(8));
            Files.writeString(done, String.join("\n", pip));
        }
        return python.toString();
    }

    static List<String> run(ProcessBuilder pb, Duration timeout) throws IOException, InterruptedException {
        Process p = pb.start();
        List<String> lines = new ArrayList<>();
        Thread reader = new Thread(() -> {
            try {
                new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().forEach(lines::add);
            } catch (IOException e) {
                lines.add("(output lost: " + e + ")");
            }
        });
        reader.setDaemon(true);
        reader.start();
        if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", pb.command()) + " did not finish within " + timeout);
        }
        reader.join(5_000);
        if (p.exitValue() != 0) {
            throw new AssertionError(String.join(" ", pb.command()) + " exited " + p.exitValue() + ":\n"
                    + String.join("\n", lines));
        }
        return lines;
    }
}
