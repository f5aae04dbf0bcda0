package io.argus.collector.otlp;

import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import java.util.Base64;
import java.util.List;

/** String forms of OTLP attribute values, as the collector stores tags. */
final class OtlpValues {
    static final int MAX_VALUE_CHARS = 4096;

    private OtlpValues() {
    }

    /** The value of {@code key} among {@code attributes} as a string, or {@code null} when absent or empty. */
    static String get(List<KeyValue> attributes, String key) {
        for (int i = 0, n = attributes.size(); i < n; i++) {
            KeyValue kv = attributes.get(i);
            if (kv.getKey().equals(key)) {
                String v = text(kv.getValue());
                return v.isEmpty() ? null : v;
            }
        }
        return null;
    }

    /** The first of {@code keys} present (new semantic conventions first, then the old names). */
    static String first(List<KeyValue> attributes, String... keys) {
        for (String key : keys) {
            String v = get(attributes, key);
            if (v != null) {
                return v;
            }
        }
        return null;
    }

    /**
     * Strings as they are, booleans and numbers in Java's notation, bytes in base64, arrays as
     * {@code [a, b]} and maps as {@code {k=v}}; cut at {@value #MAX_VALUE_CHARS} characters.
     */
    static String text(AnyValue v) {
        String s = switch (v.getValueCase()) {
            case STRING_VALUE -> v.getStringValue();
            case BOOL_VALUE -> Boolean.toString(v.getBoolValue());
            case INT_VALUE -> Long.toString(v.getIntValue());
            case DOUBLE_VALUE -> Double.toString(v.getDoubleValue());
            case BYTES_VALUE -> Base64.getEncoder().encodeToString(v.getBytesValue().toByteArray());
            case ARRAY_VALUE -> {
                StringBuilder b = new StringBuilder("[");
                for (AnyValue e : v.getArrayValue().getValuesList()) {
                    b.append(b.length() > 1 ? ", " : "").append(text(e));
                }
                yield b.append(']').toString();
            }
            case KVLIST_VALUE -> {
                StringBuilder b = new StringBuilder("{");
                for (KeyValue e : v.getKvlistValue().getValuesList()) {
                    b.append(b.length() > 1 ? ", " : "").append(e.getKey()).append('=').append(text(e.getValue()));
                }
                yield b.append('}').toString();
            }
            default -> "";
        };
        return s.length() > MAX_VALUE_CHARS ? s.substring(0, MAX_VALUE_CHARS) : s;
    }
}
