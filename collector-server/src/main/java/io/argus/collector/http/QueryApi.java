package io.argus.collector.http;

import io.argus.collector.storage.CallKinds;
import io.argus.collector.storage.AgentDirectory;
import io.argus.collector.storage.DatabaseNodes;
import io.argus.collector.storage.RedQuery;
import io.argus.collector.storage.ServiceSummary;
import io.argus.collector.storage.QueryStore;
import io.argus.collector.storage.TagFilter;
import io.argus.collector.storage.TimeRange;
import io.argus.collector.storage.TraceQuery;
import io.argus.collector.storage.TraceSearch;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Turns query parameters into storage queries: validation (400 on bad input) and defaults. */
final class QueryApi {
    static final int DEFAULT_TRACE_LIMIT = 20;
    static final int MAX_TRACE_LIMIT = 1000;
    /** The range of the series and the service map when the request names none. */
    static final long DEFAULT_RANGE_MS = 3_600_000;
    static final List<String> KINDS = CallKinds.KNOWN;
    /** Parameters that turn the recent-traces list into a search (whose rows also carry errorCount). */
    private static final List<String> SEARCH_PARAMS = List.of("route", "status", "maxDurationMs", "tag", "sort",
            "from", "to", "range");

    private final QueryStore storage;
    private final AgentDirectory registry;
    private final Clock clock;

    QueryApi(QueryStore storage, AgentDirectory registry, Clock clock) {
        this.storage = storage;
        this.registry = registry;
        this.clock = clock;
    }

    Object traces(QueryParams params) {
        String service = params.string("service");
        int limit = params.intValue("limit", DEFAULT_TRACE_LIMIT, 1, MAX_TRACE_LIMIT);
        long minNanos = durationNanos(params, "minDurationMs", 0);
        if (SEARCH_PARAMS.stream().noneMatch(params::has)) {
            return storage.traces(new TraceQuery(service, minNanos, limit));
        }
        long maxNanos = durationNanos(params, "maxDurationMs", Long.MAX_VALUE);
        if (maxNanos < minNanos) {
            throw ApiException.badRequest("'maxDurationMs' must not be less than 'minDurationMs'");
        }
        return storage.searchTraces(new TraceSearch(service, params.string("route"), status(params), minNanos,
                maxNanos, TimeWindow.range(params, clock.millis(), 0), tagFilters(params), null, sort(params), limit));
    }

    Object edgeTraces(QueryParams params) {
        String source = required(params, "source");
        String target = required(params, "target");
        int limit = params.intValue("limit", DEFAULT_TRACE_LIMIT, 1, MAX_TRACE_LIMIT);
        return storage.searchTraces(new TraceSearch(null, null, status(params), 0, Long.MAX_VALUE,
                TimeWindow.range(params, clock.millis(), DEFAULT_RANGE_MS), List.of(),
                new TraceSearch.Edge(source, target), sort(params), limit));
    }

    Object callMetrics(QueryParams params) {
        return storage.callMetrics(params.string("service"), kind(params, null),
                TimeWindow.range(params, clock.millis(), 0));
    }

    Object redSeries(QueryParams params) {
        String service = knownService(params);
        TimeRange asked = TimeWindow.range(params, clock.millis(), DEFAULT_RANGE_MS);
        long step = TimeWindow.step(params, asked);
        return storage.redSeries(new RedQuery(service, kind(params, "server"), params.string("method"),
                params.string("route"), TimeWindow.wholeSteps(asked, step), step));
    }

    Object jvmSeries(QueryParams params) {
        String service = knownService(params);
        TimeRange asked = TimeWindow.range(params, clock.millis(), DEFAULT_RANGE_MS);
        long step = TimeWindow.step(params, asked);
        return storage.jvmSeries(service, TimeWindow.wholeSteps(asked, step), step);
    }

    /** From the range's traced spans, with its databases from the database metrics (every call, traced or not). */
    Object serviceMap(QueryParams params) {
        TimeRange range = TimeWindow.range(params, clock.millis(), DEFAULT_RANGE_MS);
        return DatabaseNodes.withDatabaseMetrics(storage.serviceMap(range), storage.callMetrics(null, "db", range));
    }

    private static TraceSearch.Status status(QueryParams params) {
        return TraceSearch.Status.valueOf(
                params.choice("status", "any", List.of("any", "error", "ok")).toUpperCase(Locale.ROOT));
    }

    private static TraceSearch.Sort sort(QueryParams params) {
        return TraceSearch.Sort.valueOf(
                params.choice("sort", "time", List.of("time", "duration")).toUpperCase(Locale.ROOT));
    }

    private static String kind(QueryParams params, String defaultKind) {
        return params.choice("kind", defaultKind, KINDS);
    }

    private static String required(QueryParams params, String name) {
        String v = params.string(name);
        if (v == null) {
            throw ApiException.badRequest("parameter '" + name + "' is required");
        }
        return v;
    }

    /** The required {@code service} parameter, which must name a service that has reported. */
    private String knownService(QueryParams params) {
        String service = required(params, "service");
        for (ServiceSummary known : registry.services()) {
            if (known.service().equals(service)) {
                return service;
            }
        }
        throw ApiException.badRequest("unknown service '" + QueryParams.truncate(service) + "'");
    }

    private static long durationNanos(QueryParams params, String name, long absent) {
        if (params.string(name) == null) {
            return absent;
        }
        double ms = params.doubleValue(name, 0, 0);
        return ms >= Long.MAX_VALUE / 1e6 ? Long.MAX_VALUE : (long) Math.ceil(ms * 1_000_000d);
    }

    /** {@code tag=key=value}, repeatable; the value may be empty and may contain '='. */
    private static List<TagFilter> tagFilters(QueryParams params) {
        List<TagFilter> out = new ArrayList<>();
        for (String raw : params.strings("tag")) {
            int eq = raw.indexOf('=');
            if (eq < 0 || raw.substring(0, eq).isBlank()) {
                throw ApiException.badRequest("parameter 'tag' must be key=value, got '" + QueryParams.truncate(raw)
                        + "'");
            }
            out.add(new TagFilter(raw.substring(0, eq).strip(), raw.substring(eq + 1).strip()));
        }
        if (out.size() > 10) {
            throw ApiException.badRequest("at most 10 'tag' filters, got " + out.size());
        }
        return out;
    }
}
