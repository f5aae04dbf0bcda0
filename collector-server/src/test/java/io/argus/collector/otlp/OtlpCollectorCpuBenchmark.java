package io.argus.collector.otlp;

import io.argus.collector.CollectorMain;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.exporter.otlp.trace.OtlpGrpcSpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The collector's CPU per span over OTLP/HTTP and OTLP/gRPC, storage included (a harness run by hand): the collector
 * runs in its own JVM ({@code CollectorMain}, embedded DuckDB, both receivers), and the OpenTelemetry Java SDK's
 * exporters in this one send the same batches (512 server spans, 6 attributes) over each transport in alternating
 * rounds. Per round: the collector process's CPU time (all its threads, DuckDB's and GC included) from the first
 * batch until {@code argus_collector_spans_stored_total} shows the last span stored, divided by the spans sent.
 *
 * <pre>
 * java -cp target/test-classes:target/classes:$(cat target/cp.txt) \
 *      io.argus.collector.otlp.OtlpCollectorCpuBenchmark [rounds=8] [batchesPerRound=60]
 * </pre>
 */
public final class OtlpCollectorCpuBenchmark {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 8;
        int batches = args.length > 1 ? Integer.parseInt(args[1]) : 60;
        List<SpanData> batch = OtlpGrpcTransportBenchmark.batch();
        Path dir = Files.createTempDirectory("argus-otlp-cpu");
        int otlpHttp = freePort();
        int otlpGrpc = freePort();
        Path log = dir.resolve("collector.log");
        Process collector = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx1g", "-cp", System.getProperty("java.class.path"), CollectorMain.class.getName(),
                "--ingest-port", "0", "--http-port", "0", "--otlp-http-port", String.valueOf(otlpHttp),
                "--otlp-grpc-port", String.valueOf(otlpGrpc), "--retention-spans", "0", "--data-dir",
                dir.resolve("data").toString()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        double[] http = new double[rounds];
        double[] grpc = new double[rounds];
        try {
            String metrics = awaitStarted(log) + "metrics";
            try (OtlpHttpSpanExporter toHttp = OtlpHttpSpanExporter.builder()
                    .setEndpoint("http://127.0.0.1:" + otlpHttp + "/v1/traces").setTimeout(Duration.ofSeconds(30))
                    .build();
                 OtlpGrpcSpanExporter toGrpc = OtlpGrpcTransportBenchmark.exporter(otlpGrpc)) {
                for (int w = 0; w < 2; w++) {
                    round(collector, metrics, toHttp, batch, batches);
                    round(collector, metrics, toGrpc, batch, batches);
                }
                for (int r = 0; r < rounds; r++) {
                    http[r] = round(collector, metrics, toHttp, batch, batches);
                    grpc[r] = round(collector, metrics, toGrpc, batch, batches);
                }
            }
        } finally {
            collector.destroy();
            collector.waitFor();
            try (var files = Files.walk(dir)) {
                files.sorted((a, b) -> b.compareTo(a)).forEach(p -> p.toFile().delete());
            }
        }
        System.out.printf("collector process CPU per span (storage included) over %d rounds of %d x %d spans:%n",
                rounds, batches, OtlpGrpcTransportBenchmark.SPANS);
        System.out.printf("  OTLP/HTTP: median %.2f µs, rounds %s%n", OtlpGrpcTransportBenchmark.median(http),
                Arrays.toString(OtlpGrpcTransportBenchmark.rounded(http)));
        System.out.printf("  OTLP/gRPC: median %.2f µs, rounds %s%n", OtlpGrpcTransportBenchmark.median(grpc),
                Arrays.toString(OtlpGrpcTransportBenchmark.rounded(grpc)));
        double u = OtlpGrpcTransportBenchmark.mannWhitneyU(http, grpc);
        double z = (u - rounds * rounds / 2.0) / Math.sqrt(rounds * rounds * (2.0 * rounds + 1) / 12);
        System.out.printf("  gRPC / HTTP: x%.2f; Mann-Whitney U = %.0f, two-sided p = %.3f (normal approximation)%n",
                OtlpGrpcTransportBenchmark.median(grpc) / OtlpGrpcTransportBenchmark.median(http), u,
                2 * (1 - OtlpGrpcTransportBenchmark.normalCdf(Math.abs(z))));
    }

    static double round(Process collector, String metrics, SpanExporter exporter, List<SpanData> batch,
                        int batches) throws Exception {
        double stored0 = stored(metrics);
        long cpu0 = cpuNanos(collector);
        OtlpGrpcTransportBenchmark.send(exporter, batch, batches);
        long spans = (long) batches * batch.size();
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (stored(metrics) < stored0 + spans) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the collector did not store the round's spans within 2 min");
            }
            Thread.sleep(20);
        }
        long cpu = cpuNanos(collector) - cpu0;
        Thread.sleep(500);
        System.out.printf("    %s: %.2f µs per span; spans stored %d of %d sent%n", exporter.getClass().getSimpleName(),
                cpu / 1e3 / spans, (long) (stored(metrics) - stored0), spans);
        return cpu / 1e3 / spans;
    }

    static long cpuNanos(Process p) {
        return p.toHandle().info().totalCpuDuration().orElseThrow().toNanos();
    }

    static double stored(String metricsUrl) throws IOException, InterruptedException {
        String body = HTTP.send(HttpRequest.newBuilder(URI.create(metricsUrl)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        Matcher m = Pattern.compile("(?m)^argus_collector_spans_stored_total(?:\\{[^}]*})? (\\S+)$").matcher(body);
        double sum = 0;
        while (m.find()) {
            sum += Double.parseDouble(m.group(1));
        }
        return sum;
    }

    static String awaitStarted(Path log) throws Exception {
        Pattern started = Pattern.compile("http (http://127\\.0\\.0\\.1:\\d+/)");
        for (int i = 0; i < 600; i++) {
            String text = Files.exists(log) ? Files.readString(log) : "";
            Matcher m = started.matcher(text);
            if (text.contains("Argus collector started") && m.find()) {
                return m.group(1);
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("the collector did not start: " + Files.readString(log));
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
