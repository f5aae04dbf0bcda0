package io.argus.collector.ingest;

import io.argus.protocol.Frame;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** The collector's own ingest metrics. */
public final class IngestMetrics {
    private final Map<Frame.BodyCase, Counter> framesReceived = new EnumMap<>(Frame.BodyCase.class);
    private final Map<RejectReason, Counter> rejected = new EnumMap<>(RejectReason.class);
    private final Counter bytesReceived;
    private final Counter spansReceived;
    private final Counter connectionsOpened;
    private final Counter idleClosed;
    private final Counter backpressure;
    private final Counter refusedUnavailable;
    private final Map<String, Counter> refused = new java.util.concurrent.ConcurrentHashMap<>();
    private final MeterRegistry registry;
    private final AtomicInteger activeConnections = new AtomicInteger();

    public IngestMetrics(MeterRegistry registry) {
        this.registry = registry;
        for (Frame.BodyCase type : Frame.BodyCase.values()) {
            if (type != Frame.BodyCase.BODY_NOT_SET) {
                framesReceived.put(type, Counter.builder("argus.collector.frames.received")
                        .description("Valid frames received from agents, by type")
                        .tag("type", type.name().toLowerCase(Locale.ROOT))
                        .register(registry));
            }
        }
        for (RejectReason reason : RejectReason.values()) {
            rejected.put(reason, Counter.builder("argus.collector.frames.rejected")
                    .description("Agent connections closed because of a malformed or refused frame, by reason")
                    .tag("reason", reason.label())
                    .register(registry));
        }
        bytesReceived = Counter.builder("argus.collector.frame.bytes.received")
                .description("Frame bytes received from agents (without length prefixes)")
                .baseUnit("bytes").register(registry);
        spansReceived = Counter.builder("argus.collector.spans.received")
                .description("Spans received in valid batches").register(registry);
        connectionsOpened = Counter.builder("argus.collector.connections.opened")
                .description("Agent connections accepted").register(registry);
        idleClosed = Counter.builder("argus.collector.connections.idle.closed")
                .description("Agent connections closed after the idle timeout").register(registry);
        backpressure = Counter.builder("argus.collector.store.queue.full")
                .description("Times a connection was paused because the storage queue was full")
                .register(registry);
        refusedUnavailable = Counter.builder("argus.collector.connections.refused.unavailable")
                .description("Agent connections refused or closed because the sink could not hand data on")
                .register(registry);
        for (String reason : new String[] {"too_many_connections", "too_many_from_address"}) {
            refused(reason, 0);
        }
        Gauge.builder("argus.collector.connections.active", activeConnections, AtomicInteger::get)
                .description("Open agent connections").register(registry);
    }

    void frameReceived(Frame frame) {
        Counter c = framesReceived.get(frame.getBodyCase());
        if (c != null) {
            c.increment();
        }
    }

    void bytesReceived(int bytes) {
        bytesReceived.increment(bytes);
    }

    void spansReceived(int n) {
        spansReceived.increment(n);
    }

    void rejected(RejectReason reason) {
        rejected.get(reason).increment();
    }

    /** Connections rejected so far for {@code reason}. */
    public double rejectedCount(RejectReason reason) {
        return rejected.get(reason).count();
    }

    /** Connections rejected so far, for any reason. */
    public double rejectedTotal() {
        return rejected.values().stream().mapToDouble(Counter::count).sum();
    }

    void connectionOpened() {
        connectionsOpened.increment();
        activeConnections.incrementAndGet();
    }

    void connectionClosed() {
        activeConnections.decrementAndGet();
    }

    void idleClosed() {
        idleClosed.increment();
    }

    void refusedUnavailable() {
        refusedUnavailable.increment();
    }

    /** Agent connections refused or closed so far because the sink could not hand data on. */
    public double refusedUnavailableCount() {
        return refusedUnavailable.count();
    }

    void backpressure() {
        backpressure.increment();
    }

    /** A connection closed before a byte was read, over a connection limit. */
    void refused(String reason) {
        refused(reason, 1);
    }

    private void refused(String reason, int n) {
        refused.computeIfAbsent(reason, r -> Counter.builder("argus.collector.connections.refused")
                .description("Agent connections closed at once because a connection limit was reached, by reason")
                .tag("reason", r).register(registry)).increment(n);
    }

}
