package io.argus.collector.storage;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Where a batch came from: the service and instance named in the connection's handshake.
 * Immutable; caches the UTF-8 form of both names for the storage write path.
 */
public final class Source {
    private final String service;
    private final String instance;
    private final byte[] serviceUtf8;
    private final byte[] instanceUtf8;

    public Source(String service, String instance) {
        this.service = Objects.requireNonNull(service, "service");
        this.instance = Objects.requireNonNull(instance, "instance");
        this.serviceUtf8 = service.getBytes(StandardCharsets.UTF_8);
        this.instanceUtf8 = instance.getBytes(StandardCharsets.UTF_8);
    }

    public String service() {
        return service;
    }

    public String instance() {
        return instance;
    }

    /** UTF-8 bytes of {@link #service()}; do not modify. */
    public byte[] serviceUtf8() {
        return serviceUtf8;
    }

    /** UTF-8 bytes of {@link #instance()}; do not modify. */
    public byte[] instanceUtf8() {
        return instanceUtf8;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Source other && service.equals(other.service) && instance.equals(other.instance);
    }

    @Override
    public int hashCode() {
        return service.hashCode() * 31 + instance.hashCode();
    }

    @Override
    public String toString() {
        return service + "/" + instance;
    }
}
