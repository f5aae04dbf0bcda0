package io.argus.collector.storage.druid;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.argus.collector.storage.AgentDirectory;
import io.argus.collector.storage.AgentInfo;
import io.argus.collector.storage.CallMetricSummary;
import io.argus.collector.storage.Ids;
import io.argus.collector.storage.JvmMetrics;
import io.argus.collector.storage.ServiceSummary;
import io.argus.collector.storage.SpanRecord;
import io.argus.collector.storage.AgentStore;
import io.argus.collector.storage.JvmSeries;
import io.argus.collector.storage.QueryStore;
import io.argus.collector.storage.RedQuery;
import io.argus.collector.storage.RedSeries;
import io.argus.collector.storage.ServiceMap;
import io.argus.collector.storage.TimeRange;
import io.argus.collector.storage.TraceSearch;
import io.argus.collector.storage.TraceSearchHit;
import io.argus.collector.storage.TraceDetail;
import io.argus.collector.storage.TraceQuery;
import io.argus.collector.storage.TraceSummary;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.logging.Logger;

/**
 * The query side of a scale-out deployment: the collector's API answered from Druid SQL. Ingest collectors publish
 * to Kafka and Druid's Kafka supervisors fill the datasources ({@link DruidDatasources}); this store never writes.
 * Retention is Druid's (drop rules per datasource), so the delete methods do nothing.
 */
public final class DruidStorage implements QueryStore, AgentStore, AgentDirectory {
    private static final Logger LOG = Logger.getLogger(DruidStorage.class.getName());
    /** An agent counts as connected while its latest session event is at most this old and not a disconnect. */
    static final long CONNECTED_WINDOW_MS = 120_000;

    private final DruidSettings settings;
    private final DruidSqlClient client;
    private final DruidQueries queries;
    private final DruidRows rows;

    private DruidStorage(DruidSettings settings, DruidSqlClient client) {
        this.settings = settings;
        this.client = client;
        this.queries = new DruidQueries(settings.datasources());
        this.rows = new DruidRows(new ObjectMapper());
    }

    /**
     * Connects to Druid and checks that it answers SQL and knows the four datasources (as served segments or as
     * supervisors that will fill them).
     *
     * @throws IllegalStateException naming {@code --druid-url} or {@code --druid-datasource-prefix} when not
     */
    public static DruidStorage open(DruidSettings settings) {
        ObjectMapper json = new ObjectMapper();
        DruidSqlClient client = new DruidSqlClient(settings.url(), settings.queryTimeout(), json);
        DruidStorage storage = new DruidStorage(settings, client);
        Set<String> known = new HashSet<>();
        try {
            for (JsonNode row : client.query(storage.queries.tables())) {
                known.add(row.path("TABLE_NAME").asText());
            }
        } catch (DruidQueryException e) {
            throw new IllegalStateException("--druid-url " + settings.url() + ": Druid SQL does not answer there ("
                    + e.getMessage() + "); give the URL of a Druid router or broker", e);
        }
        known.addAll(supervisors(client, json));
        Set<String> missing = new LinkedHashSet<>(settings.datasources().all());
        missing.removeAll(known);
        if (!missing.isEmpty()) {
            throw new IllegalStateException("--druid-datasource-prefix '" + settings.datasourcePrefix() + "': Druid at "
                    + settings.url() + " has no datasource " + String.join(", ", missing)
                    + " (neither segments nor a supervisor); start the Kafka supervisors first or fix the prefix");
        }
        LOG.info("querying Druid at " + settings.url() + ", datasources " + settings.datasources().all());
        return storage;
    }

    /** Datasources with a supervisor, when the URL is a router (a broker has no overlord API: none then). */
    private static Set<String> supervisors(DruidSqlClient client, ObjectMapper json) {
        Set<String> out = new HashSet<>();
        try {
            HttpResponse<String> res = client.get("/druid/indexer/v1/supervisor");
            if (res.statusCode() == 200) {
                json.readTree(res.body()).forEach(n -> out.add(n.asText()));
            }
        } catch (DruidQueryException | IOException e) {
            LOG.fine("no supervisor list at " + client.base() + ": " + e);
        }
        return out;
    }

    public DruidSettings settings() {
        return settings;
    }

    @Override
    public List<TraceSummary> traces(TraceQuery query) {
        List<JsonNode> roots = orEmpty(() -> client.query(queries.recentRoots(query)));
        Set<String> ids = new LinkedHashSet<>();
        roots.forEach(r -> ids.add(r.path("trace_id").asText()));
        List<JsonNode> counts = ids.isEmpty() ? List.of()
                : orEmpty(() -> client.query(queries.spanCounts(new ArrayList<>(ids))));
        return rows.traces(roots, counts, query.limit());
    }

    @Override
    public Optional<TraceDetail> trace(long traceIdHigh, long traceIdLow) {
        String id = Ids.traceIdHex(traceIdHigh, traceIdLow);
        List<SpanRecord> spans = rows.spans(orEmpty(() -> client.query(queries.trace(id))));
        return spans.isEmpty() ? Optional.empty() : Optional.of(new TraceDetail(id, spans));
    }

    /** Call metrics; over a range, the cells of the minutes (the calls datasource's rollup) starting in it. */
    @Override
    public List<CallMetricSummary> callMetrics(String service, String kind, TimeRange range) {
        return rows.callMetrics(orEmpty(() -> client.query(queries.callMetrics(service, kind, range))));
    }

    @Override
    public List<TraceSearchHit> searchTraces(TraceSearch search) {
        List<String> edgeTraces = List.of();
        if (search.edge() != null) {
            edgeTraces = new ArrayList<>();
            for (JsonNode r : orEmpty(() -> client.query(queries.edgeTraces(search.edge(), search.range())))) {
                edgeTraces.add(r.path("trace_id").asText());
            }
            if (edgeTraces.isEmpty()) {
                return List.of();
            }
        }
        DruidStatement statement = queries.searchTraces(search, edgeTraces);
        List<JsonNode> hits = orEmpty(() -> client.query(statement));
        List<String> ids = new ArrayList<>();
        hits.forEach(r -> ids.add(r.path("trace_id").asText()));
        List<JsonNode> counts = ids.isEmpty() ? List.of() : orEmpty(() -> client.query(queries.spanCounts(ids)));
        return rows.searchHits(hits, counts);
    }

    @Override
    public ServiceMap serviceMap(TimeRange range) {
        return rows.serviceMap(range, orEmpty(() -> client.query(queries.serviceMapEdges(range))),
                orEmpty(() -> client.query(queries.serviceMapServices(range))));
    }

    /** Call metric cells are rolled up per minute at ingestion ({@code DruidSpecs}). */
    static final long ROLLUP_MS = 60_000;

    @Override
    public long callResolutionMs() {
        return ROLLUP_MS;
    }

    @Override
    public RedSeries redSeries(RedQuery query) {
        // whole minutes: the steps start at the range's start, and each must hold whole rolled-up rows
        TimeRange range = new TimeRange(Math.floorDiv(query.range().fromMs(), ROLLUP_MS) * ROLLUP_MS,
                query.range().toMs());
        RedQuery rolled = new RedQuery(query.service(), query.kind(), query.method(), query.route(), range,
                rollupStep(query.stepMs()));
        return rows.red(rolled, orEmpty(() -> client.query(queries.redSeries(rolled))));
    }

    /**
     * Calls are rolled up per minute at ingestion ({@code DruidSpecs}), so a finer step would leave every other
     * point empty: the step is rounded up to whole minutes.
     */
    static long rollupStep(long stepMs) {
        long minute = ROLLUP_MS;
        return Math.max(minute, (stepMs + minute - 1) / minute * minute);
    }

    @Override
    public JvmSeries jvmSeries(String service, TimeRange range, long stepMs) {
        return rows.jvmSeries(service, stepMs, orEmpty(() -> client.query(queries.jvmSeries(service, range, stepMs))));
    }

    @Override
    public JvmMetrics jvmMetrics(String service, int points) {
        int series = orEmpty(() -> client.query(queries.jvmSeries(service))).size();
        List<JsonNode> samples = series == 0 ? List.of()
                : orEmpty(() -> client.query(queries.jvmSamples(service, points, series)));
        return rows.jvm(service, samples, points);
    }

    @Override
    public List<AgentInfo> loadAgents() {
        List<JsonNode> agents = orEmpty(() -> client.query(queries.agents()));
        List<JsonNode> spans = agents.isEmpty() ? List.of() : orEmpty(() -> client.query(queries.spansPerInstance()));
        return rows.agents(agents, spans, System.currentTimeMillis(), CONNECTED_WINDOW_MS);
    }

    /** A query node's service list: the instances and last event time of each service, from the agents datasource. */
    @Override
    public List<ServiceSummary> services() {
        return rows.services(orEmpty(() -> client.query(queries.services())));
    }

    /** A query node's agent list (no agent is connected to it): {@link #loadAgents()}. */
    @Override
    public List<AgentInfo> agents() {
        return loadAgents();
    }

    /**
     * A query's rows; none while its datasource has no segment yet (a supervisor exists but nothing arrived), which
     * Druid reports as an unknown table.
     */
    private List<JsonNode> orEmpty(Supplier<List<JsonNode>> query) {
        try {
            return query.get();
        } catch (DruidQueryException e) {
            if (e.status() == 400 && e.getMessage().contains("not found")) {
                return List.of();
            }
            throw e;
        }
    }

    /** Nothing to save: agent sessions reach Druid from the ingest collectors through Kafka. */
    @Override
    public void saveAgents(Collection<AgentInfo> agents) {
    }

    /** Retention is Druid's drop rules; nothing is deleted from here. */
    @Override
    public long deleteSpansBefore(long epochNanos) {
        return 0;
    }

    /** Retention is Druid's drop rules; nothing is deleted from here. */
    @Override
    public long deleteMetricsBefore(long epochMs) {
        return 0;
    }

    @Override
    public void close() {
    }
}
