package io.argus.collector.otlp;

import io.argus.collector.storage.IngestSink;
import java.util.ArrayDeque;
import java.util.List;

/**
 * The batches of one export request that the store has not taken yet, offered again in order while its queue is
 * full (both OTLP transports wait this way before they answer). One instance per connection or call.
 */
final class PendingOffers {
    private final ArrayDeque<Mapped.Offer> waiting = new ArrayDeque<>();
    private final long giveUpMillis;
    private long sinceMs;

    /** @param giveUpMillis how long the store may refuse before the request is answered as unavailable */
    PendingOffers(long giveUpMillis) {
        this.giveUpMillis = giveUpMillis;
    }

    long giveUpMillis() {
        return giveUpMillis;
    }

    void start(List<Mapped.Offer> offers, long nowMs) {
        waiting.addAll(offers);
        sinceMs = nowMs;
    }

    /** Offers what waits, in order, until the store refuses one; whether everything was taken. */
    boolean offerTo(IngestSink sink) {
        while (!waiting.isEmpty()) {
            Mapped.Offer o = waiting.peekFirst();
            boolean taken = o.spans() != null ? sink.offerSpans(o.source(), o.spans())
                    : sink.offerMetrics(o.source(), o.metrics());
            if (!taken) {
                return false;
            }
            waiting.pollFirst();
        }
        return true;
    }

    /** Whether the store has been refusing for longer than the give-up time ({@code --otlp-store-wait}). */
    boolean expired(long nowMs) {
        return nowMs - sinceMs > giveUpMillis;
    }

    void clear() {
        waiting.clear();
    }
}
