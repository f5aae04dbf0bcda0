package io.argus.collector.storage;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Database nodes on the service map from the database metrics (kind {@code db}), which count every call,
 * traced or not: at the default 0% sampling they are the only record of a service's databases. A node is
 * named the same way from a metric target and from a span's tags, so both meet in one node:
 * {@code db:<system>/<server>/<database>} ({@code db:redis/10.0.0.5:6379},
 * {@code db:mongodb/10.0.0.6:27017/catalog}, {@code db:postgresql/db:5432/orders}), or
 * {@code db:<system>/<database>} for an embedded one ({@code db:h2/mem:shop}).
 */
public final class DatabaseNodes {

    private DatabaseNodes() {
    }

    /**
     * The node id of a metric target: the system before the first {@code ':'}, then what follows without
     * the {@code //} of a URL ({@code redis://h:1} → {@code db:redis/h:1}, {@code h2:tcp://h:1/x} →
     * {@code db:h2/h:1/x}, {@code h2:mem:shop} → {@code db:h2/mem:shop}).
     */
    public static String idOf(String target) {
        int colon = target.indexOf(':');
        if (colon <= 0) {
            return ServiceMapNode.DB_PREFIX + target;
        }
        String rest = target.substring(colon + 1);
        int slashes = rest.indexOf("//");
        if (slashes >= 0) {
            rest = rest.substring(slashes + 2);
        }
        return ServiceMapNode.DB_PREFIX + target.substring(0, colon) + (rest.isEmpty() ? "" : "/" + rest);
    }

    /**
     * {@code map} with an edge per (service, database) of {@code dbCells} (the range's db metric cells):
     * exact counts, errors and the largest cell's p95 in place of an edge from sampled spans to the same node;
     * new database nodes added.
     */
    public static ServiceMap withDatabaseMetrics(ServiceMap map, List<CallMetricSummary> dbCells) {
        if (dbCells.isEmpty()) {
            return map;
        }
        record Key(String source, String target) {
        }
        record Sum(long calls, long errors, double p95Ms) {
        }
        Map<Key, Sum> sums = new LinkedHashMap<>();
        for (CallMetricSummary cell : dbCells) {
            sums.merge(new Key(cell.service(), idOf(cell.target())), new Sum(cell.count(), cell.errors(), cell.p95Ms()),
                    (a, b) -> new Sum(a.calls + b.calls, a.errors + b.errors, Math.max(a.p95Ms, b.p95Ms)));
        }
        double seconds = Math.max(1, map.range().toMs() - map.range().fromMs()) / 1000.0;
        List<ServiceMapEdge> edges = new ArrayList<>();
        for (ServiceMapEdge edge : map.edges()) {
            if (!sums.containsKey(new Key(edge.source(), edge.target()))) {
                edges.add(edge);
            }
        }
        Map<String, String> types = new LinkedHashMap<>();
        for (ServiceMapNode node : map.nodes()) {
            types.put(node.id(), node.type());
        }
        List<String> services = new ArrayList<>();
        for (ServiceMapNode node : map.nodes()) {
            if (ServiceMapNode.SERVICE.equals(node.type())) {
                services.add(node.id());
            }
        }
        sums.forEach((key, sum) -> {
            if (sum.calls > 0) {
                edges.add(ServiceMapEdge.of(key.source, key.target, sum.calls, sum.errors, seconds, sum.p95Ms * 1_000_000));
                types.put(key.target, ServiceMapNode.DATABASE);
            }
        });
        return ServiceMap.of(map.range(), edges, types, services);
    }
}
