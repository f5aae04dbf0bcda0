package io.argus.collector.storage.duckdb;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/** A data folder as an earlier collector left it: the call-metric table with fewer kinds, and one row in it. */
final class EarlierDataFolder {

    private EarlierDataFolder() {
    }

    /**
     * @param kinds the {@code http_kind} values of that collector, e.g. {@code 'server', 'client'}
     * @param row   the values of one {@code http_metrics} row
     */
    static void write(Path dataDir, String kinds, String row) throws SQLException {
        try (Connection old = DriverManager.getConnection("jdbc:duckdb:" + dataDir.resolve("argus.duckdb"));
             Statement st = old.createStatement()) {
            st.execute("CREATE TABLE argus_meta (key VARCHAR PRIMARY KEY, value VARCHAR)");
            st.execute("INSERT INTO argus_meta VALUES ('schema_version', '1')");
            st.execute("CREATE TYPE http_kind AS ENUM (" + kinds + ")");
            st.execute("CREATE TABLE http_metrics (service VARCHAR NOT NULL, instance VARCHAR NOT NULL,"
                    + " ts_ms BIGINT NOT NULL, interval_ms BIGINT NOT NULL, kind http_kind NOT NULL,"
                    + " method VARCHAR NOT NULL, target VARCHAR NOT NULL, status INTEGER NOT NULL,"
                    + " count BIGINT NOT NULL, errors BIGINT NOT NULL, sum_nanos BIGINT NOT NULL,"
                    + " min_nanos BIGINT NOT NULL, max_nanos BIGINT NOT NULL, bucket_counts BIGINT[] NOT NULL,"
                    + " bucket_bounds BIGINT[] NOT NULL)");
            st.execute("INSERT INTO http_metrics VALUES (" + row + ")");
        }
    }
}
