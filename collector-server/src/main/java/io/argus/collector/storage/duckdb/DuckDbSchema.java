package io.argus.collector.storage.duckdb;

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
    /**
     * {@code http_kind} labels by wire value of {@code CallMetricKind}: 1 server, 2 client, 3 db (database
     * calls), 8 job (scheduled job runs); null for a value this collector does not store.
     */
    static final String[] CALL_METRIC_KINDS = {"unspecified", "server", "client", "db", null, null, null, null, "job"};

    private static final String[] DDL = {
        "CREATE TABLE IF NOT EXISTS argus_meta (key VARCHAR PRIMARY KEY, value VARCHAR)",
        "CREATE TYPE IF NOT EXISTS span_kind AS ENUM ('UNSPECIFIED', 'SERVER', 'CLIENT', 'INTERNAL', 'PRODUCER', 'CONSUMER')",
        "CREATE TYPE IF NOT EXISTS span_status AS ENUM ('UNSET', 'OK', 'ERROR')",
        "CREATE TYPE IF NOT EXISTS http_kind AS ENUM (" + metricKindList() + ")",
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
          PRIMARY KEY (service, instance))""",
    };

    private DuckDbSchema() {
    }

    /** Engine settings for a collector that shares its machine with the applications it watches. */
    static void configure(Connection conn, java.nio.file.Path dataDir) throws SQLException {
        try (Statement st = conn.createStatement()) {
            st.execute("SET memory_limit = '2GB'");
            st.execute("SET temp_directory = '" + dataDir.resolve("tmp").toAbsolutePath().toString().replace("'", "''")
                    + "'");
        }
    }

    /** The labels of {@link #CALL_METRIC_KINDS} that are stored, quoted for an {@code ENUM}. */
    static String metricKindList() {
        StringBuilder out = new StringBuilder();
        for (int i = 1; i < CALL_METRIC_KINDS.length; i++) {
            if (CALL_METRIC_KINDS[i] != null) {
                out.append(out.length() == 0 ? "" : ", ").append('\'').append(CALL_METRIC_KINDS[i]).append('\'');
            }
        }
        return out.toString();
    }

    /**
     * Data folders written by an older collector have an {@code http_kind} without the newer kinds ('db',
     * 'job'). DuckDB cannot add a value to an enum, so the column goes through VARCHAR while the type is
     * recreated.
     */
    private static void addMetricKinds(Statement st) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT len(enum_range(NULL::http_kind)) = len([" + metricKindList()
                + "]) AND list_has_all(enum_range(NULL::http_kind)::VARCHAR[], [" + metricKindList() + "])")) {
            if (rs.next() && rs.getBoolean(1)) {
                return;
            }
        }
        st.execute("ALTER TABLE http_metrics ALTER kind TYPE VARCHAR");
        st.execute("DROP TYPE http_kind");
        st.execute("CREATE TYPE http_kind AS ENUM (" + metricKindList() + ")");
        st.execute("ALTER TABLE http_metrics ALTER kind TYPE http_kind");
    }

    static void create(Connection conn) throws SQLException {
        try (Statement st = conn.createStatement()) {
            for (String ddl : DDL) {
                st.execute(ddl);
            }
            addMetricKinds(st);
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
