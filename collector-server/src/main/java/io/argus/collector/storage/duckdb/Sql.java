package io.argus.collector.storage.duckdb;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/** Runs one read statement on a pooled connection of the store. */
interface Sql {

    interface Binder {
        void bind(PreparedStatement ps) throws SQLException;
    }

    interface Reader<T> {
        T read(ResultSet rs) throws SQLException;
    }

    <T> T query(String sql, Binder binder, Reader<T> reader);
}
