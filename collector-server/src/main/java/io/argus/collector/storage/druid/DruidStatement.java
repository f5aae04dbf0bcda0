package io.argus.collector.storage.druid;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * One Druid SQL query with its dynamic parameters ({@code ?}), as posted to {@code /druid/v2/sql}: values are bound
 * by Druid, never spliced into the text. Parameters are {@link String}s (VARCHAR), {@link Long}s or
 * {@link Integer}s (BIGINT) and {@link Double}s (DOUBLE).
 */
public record DruidStatement(String sql, List<Object> parameters) {

    public DruidStatement {
        parameters = List.copyOf(parameters);
        long marks = sql.chars().filter(c -> c == '?').count();
        if (marks != parameters.size()) {
            throw new IllegalArgumentException(marks + " parameter marks but " + parameters.size() + " values: " + sql);
        }
    }

    /** The request body: rows as JSON objects keyed by column name, times in UTC. */
    public ObjectNode body(ObjectMapper json) {
        ObjectNode body = json.createObjectNode();
        body.put("query", sql);
        body.put("resultFormat", "object");
        body.putObject("context").put("sqlTimeZone", "Etc/UTC");
        ArrayNode params = body.putArray("parameters");
        for (Object p : parameters) {
            ObjectNode node = params.addObject();
            if (p instanceof String s) {
                node.put("type", "VARCHAR").put("value", s);
            } else if (p instanceof Long || p instanceof Integer) {
                node.put("type", "BIGINT").put("value", ((Number) p).longValue());
            } else if (p instanceof Double d) {
                node.put("type", "DOUBLE").put("value", d);
            } else {
                throw new IllegalArgumentException("unsupported parameter type " + p.getClass().getName());
            }
        }
        return body;
    }
}
