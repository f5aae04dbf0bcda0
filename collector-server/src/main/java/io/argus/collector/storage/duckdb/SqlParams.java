package io.argus.collector.storage.duckdb;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** The values of a statement's {@code ?} placeholders, collected in the order the SQL text is built. */
final class SqlParams implements Sql.Binder {
    private final List<Object> values = new ArrayList<>();

    /** Adds {@code value} and returns {@code "?"}, to be appended to the SQL text at the same time. */
    String add(Object value) {
        values.add(value);
        return "?";
    }

    @Override
    public void bind(PreparedStatement ps) throws SQLException {
        for (int i = 0; i < values.size(); i++) {
            ps.setObject(i + 1, values.get(i));
        }
    }

    /** A JSON pointer to a top-level key of the tags object (RFC 6901: {@code ~} and {@code /} escaped). */
    static String tagPointer(String key) {
        return "/" + key.replace("~", "~0").replace("/", "~1");
    }
}
