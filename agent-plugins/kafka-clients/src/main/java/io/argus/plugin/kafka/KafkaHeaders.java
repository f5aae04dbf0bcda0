package io.argus.plugin.kafka;

import io.argus.bridge.HeaderGetter;
import io.argus.bridge.HeaderSetter;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * A record's headers as the core reads and writes propagation headers: UTF-8 values, the last header of a name
 * wins, and writing a name replaces what the record had. A helper class.
 */
public final class KafkaHeaders implements HeaderGetter<Headers>, HeaderSetter<Headers> {
    public static final KafkaHeaders INSTANCE = new KafkaHeaders();

    private KafkaHeaders() {
    }

    @Override
    public String get(Headers headers, String name) {
        Header h = headers.lastHeader(name);
        byte[] value = h == null ? null : h.value();
        return value == null ? null : new String(value, StandardCharsets.UTF_8);
    }

    @Override
    public void set(Headers headers, String name, String value) {
        try {
            headers.remove(name);
            if (value != null) {
                headers.add(name, value.getBytes(StandardCharsets.UTF_8));
            }
        } catch (IllegalStateException readOnly) {
            // a record sent before: its headers are frozen, and it goes out with the context it had
        }
    }
}
