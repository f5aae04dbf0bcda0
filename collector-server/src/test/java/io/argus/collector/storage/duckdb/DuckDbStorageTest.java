package io.argus.collector.storage.duckdb;

import static io.argus.collector.testing.Spans.span;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.argus.collector.storage.Ids;
import io.argus.collector.storage.SpanRecord;
import io.argus.collector.storage.Source;
import io.argus.collector.storage.TagFilter;
import io.argus.collector.storage.TraceQuery;
import io.argus.collector.storage.TraceSearch;
import io.argus.collector.storage.TraceSearchHit;
import io.argus.collector.storage.TraceSummary;
import io.argus.protocol.SpanBatch;
import io.argus.protocol.SpanKind;
import io.argus.protocol.SpanStatus;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The DuckDB store on its own: the recent-traces query, spans stored twice, and the on-disk layout. */
class DuckDbStorageTest {
    static final long MS = 1_000_000L;
    static final long BASE = 1_700_000_000_000L * MS;

    @TempDir
    Path dir;

    /** {@code --storage-threads}: the database runs with the threads asked for, one by default. */
    @Test
    void theEngineRunsWithTheSettingsAskedFor() throws Exception {
        assertEngineSettings(DuckDbSettings.DEFAULTS, "1", "2.0 GiB");
        assertEngineSettings(new DuckDbSettings(3, 256), "3", "256.0 MiB");
    }

    private void assertEngineSettings(DuckDbSettings settings, String threads, String memoryLimit) throws Exception {
        Path file = dir.resolve("settings-" + settings.threads() + ".duckdb");
        try (Connection conn = DriverManager.getConnection("jdbc:duckdb:" + file);
             Statement st = conn.createStatement()) {
            DuckDbSchema.configure(conn, dir, settings);
            try (ResultSet rs = st.executeQuery("SELECT current_setting('threads'), current_setting('memory_limit')")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo(threads);
                assertThat(rs.getString(2)).isEqualTo(memoryLimit);
            }
        }
    }

    @Test
    void settingsOutsideTheirRangeAreRefusedWithTheRange() {
        assertThatThrownBy(() -> new DuckDbSettings(0, 2048)).hasMessage("storage threads must be 1 to 256, got 0");
        assertThatThrownBy(() -> new DuckDbSettings(1, 10))
                .hasMessage("storage memory must be 64 to 1048576 MiB, got 10");
    }

    /**
     * An agent sends again what a lost collector had not acknowledged; when that collector had stored it, the store
     * holds those spans twice. The queries show each once.
     */
    @Test
    void aSpanStoredTwiceIsShownAndCountedOnce() {
        try (DuckDbStorage storage = DuckDbStorage.open(dir, 10_000, new SimpleMeterRegistry())) {
            Source a = new Source("a", "a-1");
            SpanBatch batch = SpanBatch.newBuilder()
                    .addSpans(span(5, 6, 100, 0, SpanKind.SPAN_KIND_SERVER, "GET /twice", BASE, 5 * MS,
                            SpanStatus.SPAN_STATUS_OK, "http.route", "/twice"))
                    .addSpans(span(5, 6, 101, 100, SpanKind.SPAN_KIND_CLIENT, "SELECT db", BASE + MS, MS,
                            SpanStatus.SPAN_STATUS_ERROR, "db.system", "h2"))
                    .build();
            assertThat(storage.offerSpans(a, batch)).isTrue();
            assertThat(storage.offerSpans(a, batch)).isTrue();
            assertThat(storage.offerSpans(a, SpanBatch.newBuilder().addSpans(batch.getSpans(1)).build())).isTrue();
            assertThat(storage.flush(Duration.ofSeconds(10))).isTrue();

            assertThat(storage.trace(5, 6).orElseThrow().spans()).extracting(SpanRecord::spanId)
                    .containsExactly(Ids.spanIdHex(100), Ids.spanIdHex(101));
            assertThat(storage.traces(new TraceQuery(null, 0, 10))).singleElement()
                    .satisfies(t -> assertThat(t.spanCount()).isEqualTo(2));
            List<TraceSearchHit> hits = storage.searchTraces(new TraceSearch(null, null, TraceSearch.Status.ERROR, 0,
                    Long.MAX_VALUE, null, List.of(new TagFilter("db.system", "h2")), null, TraceSearch.Sort.TIME,
                    10));
            assertThat(hits).singleElement().satisfies(h -> {
                assertThat(h.spanCount()).isEqualTo(2);
                assertThat(h.errorCount()).isEqualTo(1);
            });
        }
    }

    @Test
    void recentTracesWithMoreTracesThanTheLimit() {
        try (DuckDbStorage storage = DuckDbStorage.open(dir, 10_000, new SimpleMeterRegistry())) {
            Source a = new Source("a", "a-1");
            Source b = new Source("b", "b-1");
            SpanBatch.Builder batch = SpanBatch.newBuilder();
            for (int i = 1; i <= 30; i++) {
                long start = BASE + i * 10 * MS;
                batch.addSpans(span(1, i, i * 100L, 0, SpanKind.SPAN_KIND_SERVER, "root " + i, start, i * MS,
                        SpanStatus.SPAN_STATUS_OK));
                batch.addSpans(span(1, i, i * 100L + 1, i * 100L, SpanKind.SPAN_KIND_CLIENT, "child " + i,
                        start + MS, MS / 2, SpanStatus.SPAN_STATUS_OK));
            }
            // clock skew: a child of the newest trace that claims to start long before everything else
            batch.addSpans(span(1, 30, 9_999, 3_000, SpanKind.SPAN_KIND_INTERNAL, "skewed", BASE - 1_000 * MS, MS,
                    SpanStatus.SPAN_STATUS_OK));
            assertThat(storage.offerSpans(a, batch.build())).isTrue();
            // a trace whose root has not arrived, newer than every root
            assertThat(storage.offerSpans(b, SpanBatch.newBuilder()
                    .addSpans(span(2, 1, 77, 76, SpanKind.SPAN_KIND_SERVER, "no root yet", BASE + 400 * MS, 2 * MS,
                            SpanStatus.SPAN_STATUS_OK)).build())).isTrue();
            assertThat(storage.flush(Duration.ofSeconds(10))).isTrue();
            assertThat(storage.pendingRows()).isZero();

            List<TraceSummary> top = storage.traces(new TraceQuery(null, 0, 5));
            assertThat(top).extracting(TraceSummary::rootName)
                    .containsExactly("no root yet", "root 30", "root 29", "root 28", "root 27");
            assertThat(top.get(1).spanCount()).isEqualTo(3); // includes the skewed child
            assertThat(top.get(0).service()).isEqualTo("b");
            assertThat(top.get(0).traceId()).isEqualTo(Ids.traceIdHex(2, 1));
            // the same answer as the full aggregation
            List<TraceSummary> all = storage.traces(new TraceQuery(null, 0, 1000));
            assertThat(all).hasSize(31);
            assertThat(all.subList(0, 5)).isEqualTo(top);

            assertThat(storage.traces(new TraceQuery("a", 25 * MS, 3))).extracting(TraceSummary::rootName)
                    .containsExactly("root 30", "root 29", "root 28");
            assertThat(storage.traces(new TraceQuery("a", 29 * MS, 3))).extracting(TraceSummary::rootName)
                    .containsExactly("root 30", "root 29");
            assertThat(storage.traces(new TraceQuery("b", 0, 3))).extracting(TraceSummary::rootName)
                    .containsExactly("no root yet");
        }
    }

    @Test
    void storesHexReadableRowsOnDisk() throws Exception {
        try (DuckDbStorage storage = DuckDbStorage.open(dir, 10_000, new SimpleMeterRegistry())) {
            storage.offerSpans(new Source("svc", "svc-1"), SpanBatch.newBuilder()
                    .addSpans(span(0x0af7651916cd43ddL, 0x8448eb211c80319cL, 0xb7ad6b7169203331L, 0,
                            SpanKind.SPAN_KIND_SERVER, "GET /", BASE, MS, SpanStatus.SPAN_STATUS_OK, "k", "v"))
                    .addSpans(span(0x0af7651916cd43ddL, 0x8448eb211c80319cL, -2L, 0xb7ad6b7169203331L,
                            SpanKind.SPAN_KIND_CLIENT, "call", BASE, MS, SpanStatus.SPAN_STATUS_ERROR))
                    .build());
            assertThat(storage.flush(Duration.ofSeconds(10))).isTrue();
        }
        // after close the file is a plain DuckDB database that other tools can read
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + dir.resolve("argus.duckdb"));
             Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT trace_id, span_id, parent_span_id, service, instance, kind, name,"
                     + " status, tags FROM spans_hex ORDER BY span_id")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("0af7651916cd43dd8448eb211c80319c");
            assertThat(rs.getString(2)).isEqualTo("b7ad6b7169203331");
            assertThat(rs.getString(3)).isNull();
            assertThat(rs.getString(4)).isEqualTo("svc");
            assertThat(rs.getString(5)).isEqualTo("svc-1");
            assertThat(rs.getString(6)).isEqualTo("SERVER");
            assertThat(rs.getString(7)).isEqualTo("GET /");
            assertThat(rs.getString(8)).isEqualTo("OK");
            assertThat(rs.getString(9)).isEqualTo("{\"k\":\"v\"}");
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(2)).isEqualTo("fffffffffffffffe");
            assertThat(rs.getString(3)).isEqualTo("b7ad6b7169203331");
            assertThat(rs.getString(6)).isEqualTo("CLIENT");
            assertThat(rs.getString(8)).isEqualTo("ERROR");
            assertThat(rs.getString(9)).isNull();
        }
    }
}
