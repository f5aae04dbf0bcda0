package io.argus.fleet.druid;

import io.argus.collector.storage.AgentEvent;
import io.argus.collector.storage.druid.DruidDatasources;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * A deterministic fleet's telemetry: {@code orders} (two instances) calls {@code stock} (one instance), four spans per
 * trace (orders SERVER, orders CLIENT, stock SERVER, stock INTERNAL), traces spread evenly over a time range; the
 * call metric cells, JVM gauges and agent session events that agents of that fleet would report. Traces are made one
 * at a time ({@link #forEachTrace}) so that a million spans never sit in memory; the cells, gauges and events are
 * small and built up front.
 */
final class SyntheticFleet {
    static final String ORDERS_ROUTE = "/api/orders/{id}";
    static final String STOCK_ROUTE = "/api/stock/{id}";
    static final String STOCK_PEER = "stock:8080";
    static final long INTERVAL_MS = 10_000;
    static final List<String> ORDERS = List.of("orders-1@host", "orders-2@host");
    static final String STOCK = "stock-1@host";

    record Span(String traceId, String spanId, String parentSpanId, String service, String instance, String kind,
                String name, long startNs, long durationNs, String status, Map<String, String> tags) {
    }

    record Cell(long tsMs, String service, String instance, String kind, String method, String target, int status,
                long count, long errors, long sumNs, long minNs, long maxNs, long[] buckets) {
    }

    record Gauge(long tsMs, String service, String instance, String name, double value) {
    }

    record AgentEvent(long tsMs, String event, String service, String instance, int pid, long startTimeMs,
                      long sentSpans) {
    }

    final int traces;
    final long startMs;
    final long rangeMs;
    final long seed;
    final List<Cell> cells;
    final List<Gauge> gauges = new ArrayList<>();
    final List<AgentEvent> agentEvents = new ArrayList<>();
    /** Every server span's duration per (service, status), for the exact percentiles the histograms approximate. */
    final Map<String, List<Long>> serverDurations = new LinkedHashMap<>();

    static final String REDIS = "redis://10.0.0.5:6379";
    static final String MONGO = "mongodb://10.0.0.6:27017/catalog";

    /**
     * What stock's data stores and orders' scheduled job report besides the traced calls: database cells
     * (Redis GET 40 with 1 error, MongoDB find 12) and a job cell (quartz reports.nightly 3 runs, 1 failed),
     * each in the interval five minutes into the fleet's range (inside any range that starts with the fleet, whatever
     * minute Druid rolls it into), every call 2 ms.
     */
    static List<Cell> storeAndJobCells(long startMs) {
        long ts = Math.floorDiv(startMs + 300_000, INTERVAL_MS) * INTERVAL_MS;
        List<Cell> out = new ArrayList<>();
        out.add(fixedCell(ts, "stock", STOCK, "db", "GET", REDIS, 40, 1));
        out.add(fixedCell(ts, "stock", STOCK, "db", "find", MONGO, 12, 0));
        out.add(fixedCell(ts, "orders", ORDERS.get(0), "job", "quartz", "reports.nightly", 3, 1));
        return out;
    }

    private static Cell fixedCell(long ts, String service, String instance, String kind, String method, String target,
                                  long count, long errors) {
        long d = 2_000_000;
        long[] buckets = new long[DruidDatasources.BUCKETS];
        buckets[bucketOf(d)] = count;
        return new Cell(ts, service, instance, kind, method, target, 0, count, errors, count * d, d, d, buckets);
    }

    SyntheticFleet(int traces, long startMs, long rangeMs, long seed) {
        this.traces = traces;
        this.startMs = startMs;
        this.rangeMs = rangeMs;
        this.seed = seed;
        Map<String, long[]> sums = new LinkedHashMap<>();
        Map<String, Cell> keys = new LinkedHashMap<>();
        forEachTrace(spans -> {
            for (Span s : spans) {
                if (s.kind().equals("INTERNAL")) {
                    continue;
                }
                boolean server = s.kind().equals("SERVER");
                int status = Integer.parseInt(s.tags().get("http.status_code"));
                String target = server ? s.tags().get("http.route") : STOCK_PEER;
                long ts = Math.floorDiv(s.startNs() / 1_000_000, INTERVAL_MS) * INTERVAL_MS;
                String key = ts + "|" + s.instance() + "|" + s.kind() + "|" + target + "|" + status;
                keys.putIfAbsent(key, new Cell(ts, s.service(), s.instance(), server ? "server" : "client", "GET",
                        target, status, 0, 0, 0, 0, 0, null));
                long[] acc = sums.computeIfAbsent(key, k -> {
                    long[] a = new long[5 + DruidDatasources.BUCKETS];
                    a[3] = Long.MAX_VALUE;
                    return a;
                });
                long d = s.durationNs();
                acc[0]++;
                acc[1] += status >= 500 ? 1 : 0;
                acc[2] += d;
                acc[3] = Math.min(acc[3], d);
                acc[4] = Math.max(acc[4], d);
                acc[5 + bucketOf(d)]++;
                if (server) {
                    serverDurations.computeIfAbsent(s.service() + "|" + status, k -> new ArrayList<>()).add(d);
                }
            }
        });
        List<Cell> built = new ArrayList<>();
        keys.forEach((key, k) -> {
            long[] a = sums.get(key);
            built.add(new Cell(k.tsMs(), k.service(), k.instance(), k.kind(), k.method(), k.target(), k.status(), a[0],
                    a[1], a[2], a[3], a[4], Arrays.copyOfRange(a, 5, a.length)));
        });
        built.addAll(storeAndJobCells(startMs));
        this.cells = built;
        List<String[]> instances = List.of(new String[] {"orders", ORDERS.get(0)}, new String[] {"orders", ORDERS.get(1)},
                new String[] {"stock", STOCK});
        int pid = 1000;
        for (String[] si : instances) {
            pid++;
            for (long t = startMs; t < startMs + rangeMs; t += INTERVAL_MS) {
                gauges.add(new Gauge(t, si[0], si[1], "heap.used", 1.0e8 + (t - startMs)));
                gauges.add(new Gauge(t, si[0], si[1], "threads", 20 + (t - startMs) / INTERVAL_MS % 5));
            }
            agentEvents.add(new AgentEvent(startMs, "connected", si[0], si[1], pid, startMs - 5_000, 0));
            agentEvents.add(new AgentEvent(startMs + rangeMs, "heartbeat", si[0], si[1], pid, startMs - 5_000,
                    pid * 10L));
        }
    }

    static int bucketOf(long nanos) {
        int i = Arrays.binarySearch(DruidDatasources.BUCKET_BOUNDS_NS, nanos);
        return i >= 0 ? i : -i - 1;
    }

    int spanCount() {
        return traces * 4;
    }

    /** The spans of trace {@code i}, the same on every call. */
    List<Span> trace(int i) {
        SplittableRandom r = new SplittableRandom(seed * 1_000_003L + i);
        String traceId = String.format("%016x%016x", seed + 1, i + 1L);
        long start = (startMs + rangeMs * i / traces) * 1_000_000L + r.nextLong(1_000_000);
        // latencies from about 1 ms to a few hundred, most near 10 ms
        long root = (long) (1_000_000 * Math.exp(r.nextGaussian() * 0.9 + Math.log(10)));
        root = Math.max(root, 2_000_000);
        boolean fails = r.nextInt(20) == 0;
        String code = fails ? "500" : "200";
        String status = fails ? "ERROR" : "OK";
        String orders = ORDERS.get(i % ORDERS.size());
        long client = root - 500_000;
        long stock = client - 300_000;
        String rootId = String.format("%016x", 4L * i + 1);
        String clientId = String.format("%016x", 4L * i + 2);
        String stockId = String.format("%016x", 4L * i + 3);
        String dbId = String.format("%016x", 4L * i + 4);
        return List.of(
                new Span(traceId, rootId, "", "orders", orders, "SERVER", "GET " + ORDERS_ROUTE, start, root, status,
                        Map.of("http.route", ORDERS_ROUTE, "http.status_code", code)),
                new Span(traceId, clientId, rootId, "orders", orders, "CLIENT", "GET", start + 200_000, client, status,
                        Map.of("http.status_code", code, "peer", STOCK_PEER)),
                new Span(traceId, stockId, clientId, "stock", STOCK, "SERVER", "GET " + STOCK_ROUTE, start + 350_000,
                        stock, status, Map.of("http.route", STOCK_ROUTE, "http.status_code", code)),
                new Span(traceId, dbId, stockId, "stock", STOCK, "INTERNAL", "load stock", start + 400_000,
                        stock / 2, "UNSET", Map.of()));
    }

    void forEachTrace(Consumer<List<Span>> sink) {
        for (int i = 0; i < traces; i++) {
            sink.accept(trace(i));
        }
    }
}
