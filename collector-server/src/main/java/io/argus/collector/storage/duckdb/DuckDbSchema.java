package io.argus.collector.storage.duckdb;

import io.argus.collector.storage.CallKinds;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Tables of the embedded store.
 *
 * <p>Ids are kept as the wire's 64-bit integers ({@code trace_id_high/low}, {@code span_id},
 * {@code parent_span_id}, NULL for a root) because the single-writer Appender path is about twice as fast
 * with them as with 32/16-char hex text; the view {@code spans_hex} shows them as lowercase hex, exactly as
 * the query API does.
 */
final class DuckDbSchema {
    static final int VERSION = 1;

    static final String[] SPAN_KINDS = {"UNSPECIFIED", "SERVER", "CLIENT", "INTERNAL", "PRODUCER", "CONSUMER"};
    static final String[] SPAN_STATUSES = {"UNSET", "OK", "ERROR"};

    private static final String[] DDL = {
        "CREATE TABLE IF NOT EXISTS argus_meta (key VARCHAR PRIMARY KEY, value VARCHAR)",
        "CREATE TYPE IF NOT EXISTS span_kind AS ENUM ('UNSPECIFIED', 'SERVER', 'CLIENT', 'INTERNAL', 'PRODUCER', 'CONSUMER')",
        "CREATE TYPE IF NOT EXISTS span_status AS ENUM ('UNSET', 'OK', 'ERROR')",
        "CREATE TYPE IF NOT EXISTS http_kind AS ENUM (" + CallKinds.sqlList() + ")",
        """
        CREATE TABLE IF NOT EXISTS spans (
          trace_id_high BIGINT NOT NULL,
          trace_id_low BIGINT NOT NULL,
          span_id BIGINT NOT NULL,
          parent_span_id BIGINT,
          service VARCHAR NOT NULL,
          instance VARCHAR NOT NULL,
          kind span_kind NOT NULL,
          name VARCHAR NOT NULL,
          start_epoch_nanos BIGINT NOT NULL,
          duration_nanos BIGINT NOT NULL,
          status span_status NOT NULL,
          tags VARCHAR)""",
        """
        CREATE OR REPLACE VIEW spans_hex AS
        SELECT printf('%016x%016x', trace_id_high, trace_id_low) AS trace_id,
               printf('%016x', span_id) AS span_id,
               CASE WHEN parent_span_id IS NULL THEN NULL ELSE printf('%016x', parent_span_id) END AS parent_span_id,
               service, instance, kind, name, start_epoch_nanos, duration_nanos, status, tags
        FROM spans""",
        // Call metric cells. Table and type keep their first names (from before database calls shared
        // the cell) so that existing data folders and the SQL people run on them keep working.
        """
        CREATE TABLE IF NOT EXISTS http_metrics (
          service VARCHAR NOT NULL,
          instance VARCHAR NOT NULL,
          ts_ms BIGINT NOT NULL,
          interval_ms BIGINT NOT NULL,
          kind http_kind NOT NULL,
          method VARCHAR NOT NULL,
          target VARCHAR NOT NULL,
          status INTEGER NOT NULL,
          count BIGINT NOT NULL,
          errors BIGINT NOT NULL,
          sum_nanos BIGINT NOT NULL,
          min_nanos BIGINT NOT NULL,
          max_nanos BIGINT NOT NULL,
          bucket_counts BIGINT[] NOT NULL,
          bucket_bounds BIGINT[] NOT NULL)""",
        """
        CREATE TABLE IF NOT EXISTS jvm_gauges (
          service VARCHAR NOT NULL,
          instance VARCHAR NOT NULL,
          ts_ms BIGINT NOT NULL,
          name VARCHAR NOT NULL,
          value DOUBLE NOT NULL)""",
        """
        CREATE TABLE IF NOT EXISTS agents (
          service VARCHAR NOT NULL,
          instance VARCHAR NOT NULL,
          agent_version VARCHAR,
          host VARCHAR,
          pid BIGINT,
          start_time_ms BIGINT,
          runtime_version VARCHAR,
          protocol_version INTEGER,
          remote_address VARCHAR,
          connected_at_ms BIGINT,
          last_seen_ms BIGINT,
          last_heartbeat_ms BIGINT,
          dropped_spans BIGINT,
          dropped_metrics BIGINT,
          advice_errors BIGINT,
          sent_spans BIGINT,
          spans_received BIGINT,
          startup_mode VARCHAR,
          observing_since_ms BIGINT,
          PRIMARY KEY (service, instance))""",
    };

    private DuckDbSchema() {
    }

    /** Engine settings for a collector that shares its machine with the applications it watches. */
    static void configure(Connection conn, java.nio.file.Path dataDir, DuckDbSettings settings) throws SQLException {
        try (Statement st = conn.createStatement()) {
            st.execute("SET memory_limit = '" + settings.memoryLimitMiB() + "MiB'");
            // By default no worker threads: every statement runs on the thread that issued it. With workers, the
            // issuing thread spins while a worker finishes the last task of a statement (each commit, each upsert),
            // which cost the writer ~1.5 µs of CPU per span at 8k spans/s on two cores; bulk writes and the queries
            // of the benchmarks were no slower without them there. A larger machine may trade that for queries.
            st.execute("SET threads = " + settings.threads());
            st.execute("SET temp_directory = '" + dataDir.resolve("tmp").toAbsolutePath().toString().replace("'", "''")
                    + "'");
        }
    }

    /**
     * Data folders written before a kind existed ('db', then 'produce' and 'consume') have {@code http_kind}
     * without it. DuckDB cannot add a value to an enum, so the column goes through VARCHAR while the type is
     * recreated with every kind this collector knows.
     */
    private static void addCallMetricKinds(Statement st) throws SQLException {
        String last = CallKinds.KNOWN.get(CallKinds.KNOWN.size() - 1);
        try (ResultSet rs = st.executeQuery("SELECT list_contains(enum_range(NULL::http_kind), '" + last + "')")) {
            if (rs.next() && rs.getBoolean(1)) {
                return;
            }
        }
        st.execute("ALTER TABLE http_metrics ALTER kind TYPE VARCHAR");
        st.execute("DROP TYPE http_kind");
        st.execute("CREATE TYPE http_kind AS ENUM (" + CallKinds.sqlList() + ")");
        st.execute("ALTER TABLE http_metrics ALTER kind TYPE http_kind");
    }

    /** Data folders written before agents said how they started lack these columns. */
    private static void addAgentStartupColumns(Statement st) throws SQLException {
        st.execute("ALTER TABLE agents ADD COLUMN IF NOT EXISTS startup_mode VARCHAR");
        st.execute("ALTER TABLE agents ADD COLUMN IF NOT EXISTS observing_since_ms BIGINT");
    }

    static void create(Connection conn) throws SQLException {
        try (Statement st = conn.createStatement()) {
            for (String ddl : DDL) {
                st.execute(ddl);
            }
            addCallMetricKinds(st);
            addAgentStartupColumns(st);
            try (ResultSet rs = st.executeQuery("SELECT value FROM argus_meta WHERE key = 'schema_version'")) {
                if (rs.next()) {
                    int found = Integer.parseInt(rs.getString(1));
                    if (found > VERSION) {
                        throw new SQLException("data directory was written by a newer collector (schema version "
                                + found + ", this collector knows " + VERSION + ")");
                    }
                } else {
                    st.execute("INSERT INTO argus_meta VALUES ('schema_version', '" + VERSION + "')");
                }
            }
        }
    }
}
