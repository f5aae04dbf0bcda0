package io.argus.plugin.mongodb;

import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonValue;

import java.util.Map;

/**
 * A traced command's statement: its document as JSON with every value hidden ({@code ?}) but the
 * command's own (the collection), and the driver's bookkeeping fields ({@code $db}, {@code lsid},
 * {@code $clusterTime}, ...) left out, e.g. {@code {"find": "orders", "filter": {"status": ?,
 * "total": {"$gt": ?}}, "limit": ?}}. Bounded: at most {@link #MAX_CHARS} characters and
 * {@link #MAX_DEPTH} levels. A helper class: defined in the driver's class loader.
 */
public final class MongoStatements {

    static final int MAX_CHARS = 1024;
    static final int MAX_DEPTH = 8;
    private static final int MAX_KEY_CHARS = 64;

    private MongoStatements() {
    }

    public static String of(BsonDocument command) {
        StringBuilder out = new StringBuilder(128);
        out.append('{');
        boolean first = true;
        for (Map.Entry<String, BsonValue> field : command.entrySet()) {
            String key = field.getKey();
            if (key.startsWith("$") || key.equals("lsid") || key.equals("txnNumber") || key.equals("autocommit")
                    || key.equals("startTransaction")) {
                continue;
            }
            if (!first) {
                out.append(", ");
            }
            appendKey(out, key);
            if (first && field.getValue().isString()) {
                appendString(out, field.getValue().asString().getValue());
            } else {
                appendValue(out, field.getValue(), 1);
            }
            first = false;
            if (out.length() > MAX_CHARS) {
                break;
            }
        }
        out.append('}');
        return out.length() <= MAX_CHARS ? out.toString() : out.substring(0, MAX_CHARS - 3) + "...";
    }

    private static void appendValue(StringBuilder out, BsonValue value, int depth) {
        if (value.isDocument() && depth < MAX_DEPTH) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<String, BsonValue> field : value.asDocument().entrySet()) {
                if (out.length() > MAX_CHARS) {
                    break;
                }
                if (!first) {
                    out.append(", ");
                }
                appendKey(out, field.getKey());
                appendValue(out, field.getValue(), depth + 1);
                first = false;
            }
            out.append('}');
        } else if (value.isArray() && depth < MAX_DEPTH) {
            BsonArray array = value.asArray();
            // a list of operators or stages ($and, $or, pipeline) shows its shape; one of values, only "?"
            if (!array.isEmpty() && array.get(0).isDocument()) {
                out.append('[');
                for (int i = 0; i < array.size() && out.length() <= MAX_CHARS; i++) {
                    if (i > 0) {
                        out.append(", ");
                    }
                    appendValue(out, array.get(i), depth + 1);
                }
                out.append(']');
            } else {
                out.append('?');
            }
        } else {
            out.append('?');
        }
    }

    private static void appendKey(StringBuilder out, String key) {
        appendString(out, key);
        out.append(": ");
    }

    private static void appendString(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0, n = Math.min(s.length(), MAX_KEY_CHARS); i < n; i++) {
            char c = s.charAt(i);
            out.append(c == '"' || c < 0x20 ? '.' : c);
        }
        if (s.length() > MAX_KEY_CHARS) {
            out.append("...");
        }
        out.append('"');
    }
}
