package io.argus.core.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Call metrics of one kind (HTTP server, HTTP client, database, messages produced or consumed) keyed by (method, target, status). A known cell is
 * found with two hash look-ups and a short scan, without allocating. New targets beyond
 * {@code maxTargets} share one overflow cell so that unbounded paths cannot exhaust memory.
 */
public final class CallMetricsTable {

    public static final String OVERFLOW_TARGET = "_other_";
    /** Where HTTP methods outside the standard ones are counted, as OpenTelemetry does. */
    public static final String OTHER_METHOD = "_OTHER";
    /** The methods of RFC 9110 and RFC 5789. */
    public static final java.util.Set<String> HTTP_METHODS = java.util.Collections.unmodifiableSet(new java.util.HashSet<String>(
            java.util.Arrays.asList("GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH")));
    private static final String UNKNOWN = "_unknown_";

    private final ConcurrentHashMap<String, ConcurrentHashMap<String, StatusCells>> byMethod =
            new ConcurrentHashMap<String, ConcurrentHashMap<String, StatusCells>>();
    private final AtomicInteger targets = new AtomicInteger();
    private final int maxTargets;
    /** Methods with cells of their own; null for any (the callers' methods are a closed set). */
    private final java.util.Set<String> knownMethods;

    public CallMetricsTable(int maxTargets) {
        this(maxTargets, null);
    }

    public CallMetricsTable(int maxTargets, java.util.Set<String> knownMethods) {
        this.maxTargets = maxTargets;
        this.knownMethods = knownMethods;
    }

    /** A table for HTTP calls: invented methods fold into {@link #OTHER_METHOD}, so they cannot grow it. */
    public static CallMetricsTable forHttp(int maxTargets) {
        return new CallMetricsTable(maxTargets, HTTP_METHODS);
    }

    public void record(String method, String target, int status, long nanos, boolean error) {
        record(method, target, status, nanos, error, 1);
    }

    /** {@code times} calls of the same cell that each took {@code nanos}; nothing when {@code times} is not positive. */
    public void record(String method, String target, int status, long nanos, boolean error, int times) {
        if (times <= 0) {
            return;
        }
        if (method == null) {
            method = UNKNOWN;
        }
        if (target == null) {
            target = UNKNOWN;
        }
        ConcurrentHashMap<String, StatusCells> byTarget = byMethod.get(method);
        if (byTarget == null) {
            if (knownMethods != null && !knownMethods.contains(method)) {
                method = OTHER_METHOD;
            }
            byTarget = methodTable(method);
        }
        StatusCells cells = byTarget.get(target);
        if (cells == null) {
            cells = newTarget(byTarget, target);
        }
        cells.forStatus(method, status).record(nanos, error, times);
    }

    private ConcurrentHashMap<String, StatusCells> methodTable(String method) {
        ConcurrentHashMap<String, StatusCells> created = new ConcurrentHashMap<String, StatusCells>();
        ConcurrentHashMap<String, StatusCells> raced = byMethod.putIfAbsent(method, created);
        return raced != null ? raced : created;
    }

    private StatusCells newTarget(ConcurrentHashMap<String, StatusCells> byTarget, String target) {
        if (targets.get() >= maxTargets) {
            target = OVERFLOW_TARGET;
            StatusCells overflow = byTarget.get(target);
            if (overflow != null) {
                return overflow;
            }
        }
        StatusCells created = new StatusCells(target);
        StatusCells raced = byTarget.putIfAbsent(target, created);
        if (raced != null) {
            return raced;
        }
        targets.incrementAndGet();
        return created;
    }

    /** Takes and resets every cell's counts; called by the exporter once per interval. */
    public List<CallStats.Snapshot> takeSnapshots() {
        List<CallStats.Snapshot> out = new ArrayList<CallStats.Snapshot>();
        for (ConcurrentHashMap<String, StatusCells> byTarget : byMethod.values()) {
            for (StatusCells cells : byTarget.values()) {
                for (CallStats stats : cells.cells) {
                    CallStats.Snapshot snapshot = stats.takeSnapshot();
                    if (snapshot != null) {
                        out.add(snapshot);
                    }
                }
            }
        }
        return out;
    }

    /** The cells of one (method, target), one per status seen; copy-on-write because statuses are few. */
    private static final class StatusCells {
        final String target;
        volatile CallStats[] cells = new CallStats[0];

        StatusCells(String target) {
            this.target = target;
        }

        CallStats forStatus(String method, int status) {
            CallStats[] current = cells;
            for (CallStats stats : current) {
                if (stats.status == status) {
                    return stats;
                }
            }
            return add(method, status);
        }

        private synchronized CallStats add(String method, int status) {
            for (CallStats stats : cells) {
                if (stats.status == status) {
                    return stats;
                }
            }
            CallStats created = new CallStats(method, target, status);
            CallStats[] grown = new CallStats[cells.length + 1];
            System.arraycopy(cells, 0, grown, 0, cells.length);
            grown[cells.length] = created;
            cells = grown;
            return created;
        }
    }
}
