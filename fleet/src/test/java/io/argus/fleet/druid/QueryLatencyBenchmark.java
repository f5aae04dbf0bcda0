package io.argus.fleet.druid;

import io.argus.collector.storage.AgentEvent;
import io.argus.cluster.druid.DruidCluster;
import io.argus.collector.Collector;
import io.argus.collector.CollectorConfig;
import io.argus.collector.storage.AgentInfo;
import io.argus.collector.storage.Ids;
import io.argus.collector.storage.Source;
import io.argus.collector.storage.druid.DruidDatasources;
import io.argus.collector.storage.druid.DruidSettings;
import io.argus.collector.storage.duckdb.DuckDbStorage;
import io.argus.protocol.CallMetric;
import io.argus.protocol.CallMetricKind;
import io.argus.protocol.Gauge;
import io.argus.protocol.MetricBatch;
import io.argus.protocol.Span;
import io.argus.protocol.SpanBatch;
import io.argus.protocol.SpanKind;
import io.argus.protocol.SpanStatus;
import io.argus.protocol.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.BufferedWriter;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.commons.math3.stat.inference.MannWhitneyUTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Query latency of the collector API on the same data in Druid (query node, {@code --query druid}) and in the
 * embedded DuckDB store: a trace by id, the service list, the HTTP metrics of an hour, the recent traces. The data is
 * an hour of {@link SyntheticFleet} traffic; Druid gets it by native batch ingestion of the contract's records,
 * DuckDB through its storage API. Requests alternate between the two collectors so that both see the same machine
 * load. Not part of any build; run it with
 * {@code mvn -Pdruid -pl fleet test -Dtest=QueryLatencyBenchmark -Dargus.bench.traces=250000}.
 */
class QueryLatencyBenchmark {
    private static final Duration INGEST_TIMEOUT = Duration.ofMinutes(60);

    @TempDir
    Path work;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void druidBesideDuckDb() throws Exception {
        int traces = Integer.getInteger("argus.bench.traces", 250_000);
        int rounds = Integer.getInteger("argus.bench.rounds", 40);
        long end = System.currentTimeMillis() - 60_000;
        SyntheticFleet fleet = new SyntheticFleet(traces, end - 3_600_000, 3_600_000, 11);
        System.out.printf("fleet: %d traces, %d spans, %d call cells, %d gauge samples over one hour%n", traces,
                fleet.spanCount(), fleet.cells.size(), fleet.gauges.size());

        long t0 = System.nanoTime();
        Path duckDir = work.resolve("duckdb");
        loadDuckDb(fleet, duckDir);
        System.out.printf("DuckDB loaded in %.1f s%n", (System.nanoTime() - t0) / 1e9);

        DruidSpecs specs = new DruidSpecs(new DruidDatasources("argus-"));
        try (DruidCluster druid = DruidCluster.start(DruidCluster.install(), work.resolve("druid"), 4, System.out)) {
            t0 = System.nanoTime();
            loadDruid(fleet, specs, druid);
            System.out.printf("Druid ingested and queryable in %.1f s%n", (System.nanoTime() - t0) / 1e9);
            try (Collector duck = Collector.start(CollectorConfig.builder().ingestPort(0).httpPort(0).otlpHttpPort(0)
                    .dataDir(duckDir).retentionSpans(Duration.ZERO).retentionMetrics(Duration.ZERO).build());
                 Collector query = Collector.start(CollectorConfig.builder().ingestPort(0).httpPort(0)
                         .druidQuery(new DruidSettings(URI.create(druid.routerUrl()), "argus-",
                                 Duration.ofMinutes(2))).build())) {
                measure(fleet, traces, rounds, query, duck);
            }
        }
    }

    private static void loadDuckDb(SyntheticFleet fleet, Path dir) throws Exception {
        try (DuckDbStorage store = DuckDbStorage.open(dir, 262_144, new SimpleMeterRegistry())) {
            Map<Source, SpanBatch.Builder> batches = new HashMap<>();
            fleet.forEachTrace(trace -> {
                for (SyntheticFleet.Span s : trace) {
                    Source src = new Source(s.service(), s.instance());
                    SpanBatch.Builder b = batches.computeIfAbsent(src, k -> SpanBatch.newBuilder());
                    b.addSpans(proto(s));
                    if (b.getSpansCount() == 1000) {
                        offer(() -> store.offerSpans(src, b.build()));
                        b.clear();
                    }
                }
            });
            batches.forEach((src, b) -> offer(() -> store.offerSpans(src, b.build())));
            Map<String, MetricBatch.Builder> metrics = new LinkedHashMap<>();
            for (SyntheticFleet.Cell c : fleet.cells) {
                metrics.computeIfAbsent(c.service() + "|" + c.instance() + "|" + c.tsMs(), k -> metricBatch(c.tsMs()))
                        .addCalls(proto(c));
            }
            for (SyntheticFleet.Gauge g : fleet.gauges) {
                metrics.computeIfAbsent(g.service() + "|" + g.instance() + "|" + g.tsMs(), k -> metricBatch(g.tsMs()))
                        .addJvm(Gauge.newBuilder().setName(g.name()).setValue(g.value()));
            }
            metrics.forEach((key, b) -> {
                String[] parts = key.split("\\|");
                offer(() -> store.offerMetrics(new Source(parts[0], parts[1]), b.build()));
            });
            Map<String, AgentInfo> agents = new LinkedHashMap<>();
            for (SyntheticFleet.AgentEvent e : fleet.agentEvents) {
                AgentInfo old = agents.get(e.instance());
                long connectedAt = e.event().equals("connected") ? e.tsMs() : old == null ? 0 : old.connectedAtMs();
                agents.put(e.instance(), new AgentInfo(e.service(), e.instance(), "0.1.0", "host", e.pid(),
                        e.startTimeMs(), "17.0.16", 1, "127.0.0.1:" + (40000 + e.pid()), false, connectedAt, e.tsMs(),
                        e.event().equals("heartbeat") ? e.tsMs() : 0, 0, 0, 0, e.sentSpans(), 0, "parallel", e.tsMs()));
            }
            store.saveAgents(agents.values());
            if (!store.flush(Duration.ofMinutes(30))) {
                throw new IllegalStateException("DuckDB did not write everything within 30 minutes");
            }
        }
    }

    private static MetricBatch.Builder metricBatch(long tsMs) {
        MetricBatch.Builder b = MetricBatch.newBuilder().setTimestampMs(tsMs).setIntervalMs(SyntheticFleet.INTERVAL_MS);
        for (long bound : DruidDatasources.BUCKET_BOUNDS_NS) {
            b.addBucketBoundsNanos(bound);
        }
        return b;
    }

    private interface Offer {
        boolean offer();
    }

    /** Offers until the store's queue takes the batch. */
    private static void offer(Offer offer) {
        while (!offer.offer()) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    private static Span proto(SyntheticFleet.Span s) {
        long[] id = Ids.parseTraceId(s.traceId());
        Span.Builder b = Span.newBuilder().setTraceIdHigh(id[0]).setTraceIdLow(id[1])
                .setSpanId(Ids.parseSpanId(s.spanId()))
                .setParentSpanId(s.parentSpanId().isEmpty() ? 0 : Ids.parseSpanId(s.parentSpanId()))
                .setKind(SpanKind.valueOf("SPAN_KIND_" + s.kind())).setName(s.name())
                .setStartEpochNanos(s.startNs()).setDurationNanos(s.durationNs())
                .setStatus(SpanStatus.valueOf("SPAN_STATUS_" + s.status()));
        s.tags().forEach((k, v) -> b.addTags(Tag.newBuilder().setKey(k).setValue(v)));
        return b.build();
    }

    private static CallMetric proto(SyntheticFleet.Cell c) {
        CallMetric.Builder b = CallMetric.newBuilder()
                .setKind(c.kind().equals("server") ? CallMetricKind.CALL_METRIC_KIND_SERVER
                        : CallMetricKind.CALL_METRIC_KIND_CLIENT)
                .setMethod(c.method()).setTarget(c.target()).setStatus(c.status()).setCount(c.count())
                .setErrors(c.errors()).setSumNanos(c.sumNs()).setMinNanos(c.minNs()).setMaxNanos(c.maxNs());
        for (long n : c.buckets()) {
            b.addBucketCounts(n);
        }
        return b.build();
    }

    private void loadDruid(SyntheticFleet fleet, DruidSpecs specs, DruidCluster druid) throws Exception {
        DruidDatasources ds = specs.datasources();
        RetentionRules.defaults().apply(druid.api(), ds);
        Path files = work.resolve("records");
        Files.createDirectories(files);
        try (BufferedWriter out = Files.newBufferedWriter(files.resolve("spans.json"), StandardCharsets.UTF_8)) {
            fleet.forEachTrace(trace -> trace.forEach(s -> {
                try {
                    out.write(FleetRecords.text(FleetRecords.span(s)));
                    out.newLine();
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }));
        }
        List<String> tasks = new ArrayList<>();
        tasks.add(druid.api().submitTask(specs.localBatchTask(ds.spans(), files, "spans.json")));
        tasks.add(druid.api().submitTask(specs.inlineBatchTask(ds.calls(),
                String.join("\n", FleetRecords.lines(fleet.cells, FleetRecords::cell)))));
        tasks.add(druid.api().submitTask(specs.inlineBatchTask(ds.jvm(),
                String.join("\n", FleetRecords.lines(fleet.gauges, FleetRecords::gauge)))));
        tasks.add(druid.api().submitTask(specs.inlineBatchTask(ds.agents(),
                String.join("\n", FleetRecords.lines(fleet.agentEvents, FleetRecords::agentEvent)))));
        for (String task : tasks) {
            druid.api().awaitTask(task, INGEST_TIMEOUT);
        }
        long spans = fleet.spanCount();
        druid.api().awaitSql("SELECT COUNT(*) AS n FROM \"" + ds.spans() + "\"",
                rows -> rows.size() == 1 && rows.get(0).path("n").asLong() == spans, INGEST_TIMEOUT);
        druid.api().awaitSql("SELECT COUNT(*) AS n FROM \"" + ds.agents() + "\"",
                rows -> rows.size() == 1 && rows.get(0).path("n").asLong() == fleet.agentEvents.size(),
                INGEST_TIMEOUT);
        long calls = fleet.cells.stream().mapToLong(SyntheticFleet.Cell::count).sum();
        druid.api().awaitSql("SELECT SUM(\"count\") AS n FROM \"" + ds.calls() + "\"",
                rows -> rows.size() == 1 && rows.get(0).path("n").asLong() == calls, INGEST_TIMEOUT);
    }

    private void measure(SyntheticFleet fleet, int traces, int rounds, Collector druid, Collector duck)
            throws Exception {
        SplittableRandom pick = new SplittableRandom(5);
        Map<String, java.util.function.IntFunction<String>> endpoints = new LinkedHashMap<>();
        endpoints.put("trace by id", i -> "api/traces/" + fleet.trace(pick.nextInt(traces)).get(0).traceId());
        endpoints.put("service list", i -> "api/services");
        endpoints.put("HTTP metrics, the hour", i -> "api/metrics/http");
        endpoints.put("recent traces (20)", i -> "api/traces");
        StringBuilder table = new StringBuilder();
        table.append(String.format(Locale.ROOT, "%d spans (%d traces) over one hour; %d requests per endpoint and"
                + " store, alternating; load average at start %.2f%n%n", fleet.spanCount(), traces, rounds,
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage()));
        table.append("| endpoint | Druid median ms | Druid p90 ms | DuckDB median ms | DuckDB p90 ms | Druid/DuckDB"
                + " (medians) | p-value (Mann-Whitney) |\n|---|---|---|---|---|---|---|\n");
        for (Map.Entry<String, java.util.function.IntFunction<String>> e : endpoints.entrySet()) {
            for (int w = 0; w < 5; w++) {
                String path = e.getValue().apply(w);
                time(druid, path);
                time(duck, path);
            }
            double[] d = new double[rounds];
            double[] k = new double[rounds];
            for (int i = 0; i < rounds; i++) {
                String path = e.getValue().apply(i);
                if (i % 2 == 0) {
                    d[i] = time(druid, path);
                    k[i] = time(duck, path);
                } else {
                    k[i] = time(duck, path);
                    d[i] = time(druid, path);
                }
            }
            double p = new MannWhitneyUTest().mannWhitneyUTest(d, k);
            table.append(String.format(Locale.ROOT, "| %s | %.1f | %.1f | %.1f | %.1f | %.2f | %.2g |%n", e.getKey(),
                    quantile(d, 0.5), quantile(d, 0.9), quantile(k, 0.5), quantile(k, 0.9),
                    quantile(d, 0.5) / quantile(k, 0.5), p));
        }
        table.append(String.format(Locale.ROOT, "%nload average at end %.2f%n",
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage()));
        System.out.println(table);
        Path report = Path.of("target", "query-latency.md");
        Files.createDirectories(report.getParent());
        Files.writeString(report, table.toString());
    }

    /** Milliseconds of one GET answered 200. */
    private double time(Collector c, String path) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create(c.httpUrl() + path)).timeout(Duration.ofMinutes(2)).GET()
                .build();
        long start = System.nanoTime();
        HttpResponse<String> r = http.send(req, HttpResponse.BodyHandlers.ofString());
        double ms = (System.nanoTime() - start) / 1e6;
        if (r.statusCode() != 200) {
            throw new IllegalStateException("GET " + path + " answered " + r.statusCode() + ": " + r.body());
        }
        return ms;
    }

    private static double quantile(double[] values, double q) {
        double[] v = values.clone();
        Arrays.sort(v);
        return v[Math.min(v.length - 1, (int) Math.ceil(q * v.length) - 1)];
    }
}
