package io.argus.plugin.grpc;

import io.argus.bridge.HeaderGetter;
import io.argus.bridge.HeaderSetter;
import io.grpc.Metadata;
import java.util.Locale;

/**
 * A call's metadata as the core reads and writes propagation headers. The keys of the headers the core asks for
 * are made once: a look-up allocates nothing. A helper class.
 */
public final class MetadataHeaders implements HeaderGetter<Metadata>, HeaderSetter<Metadata> {
    public static final MetadataHeaders INSTANCE = new MetadataHeaders();

    private static final Metadata.Key<String> TRACEPARENT = key("traceparent");
    private static final Metadata.Key<String> TRACESTATE = key("tracestate");
    private static final Metadata.Key<String> B3 = key("b3");
    private static final Metadata.Key<String> B3_TRACE_ID = key("x-b3-traceid");
    private static final Metadata.Key<String> B3_SPAN_ID = key("x-b3-spanid");
    private static final Metadata.Key<String> B3_SAMPLED = key("x-b3-sampled");

    private MetadataHeaders() {
    }

    @Override
    public String get(Metadata metadata, String name) {
        return metadata.get(keyOf(name));
    }

    @Override
    public void set(Metadata metadata, String name, String value) {
        Metadata.Key<String> key = keyOf(name);
        metadata.removeAll(key);
        if (value != null) {
            metadata.put(key, value);
        }
    }

    private static Metadata.Key<String> keyOf(String name) {
        switch (name) {
            case "traceparent":
                return TRACEPARENT;
            case "tracestate":
                return TRACESTATE;
            case "b3":
                return B3;
            case "X-B3-TraceId":
                return B3_TRACE_ID;
            case "X-B3-SpanId":
                return B3_SPAN_ID;
            case "X-B3-Sampled":
                return B3_SAMPLED;
            default:
                return key(name.toLowerCase(Locale.ROOT));
        }
    }

    private static Metadata.Key<String> key(String name) {
        return Metadata.Key.of(name, Metadata.ASCII_STRING_MARSHALLER);
    }
}
