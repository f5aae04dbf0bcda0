package io.argus.collector.ingest;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes all agent connections together may buffer for frames in progress ({@code --max-buffered-bytes}). A
 * connection reserves a frame's declared length when its length prefix arrives and releases it once the frame is
 * decoded (or the connection closes). A frame that does not fit waits, its connection not read meanwhile (back-pressure
 * through TCP), until releases make room; connections whose frames are reserved keep reading, so they always finish
 * and free what they hold. A reservation into an empty budget always succeeds, so no single frame can wait for ever.
 * Thread-safe.
 */
final class FrameMemoryBudget {

    /** A connection waiting for room; {@link #retry} runs on its own event loop. */
    interface Waiter {
        long wanted();

        void retry();
    }

    private final long capacity;
    private final AtomicLong reserved = new AtomicLong();
    private final ConcurrentLinkedQueue<Waiter> waiters = new ConcurrentLinkedQueue<>();

    FrameMemoryBudget(long capacity, MeterRegistry registry) {
        this.capacity = capacity;
        Gauge.builder("argus.collector.ingest.buffered.bytes", reserved, AtomicLong::get)
                .description("Bytes reserved for agent frames in progress, across connections")
                .baseUnit("bytes").register(registry);
        Gauge.builder("argus.collector.ingest.buffered.limit", this, b -> b.capacity)
                .description("Most bytes agent frames in progress may reserve (--max-buffered-bytes)")
                .baseUnit("bytes").register(registry);
        Gauge.builder("argus.collector.ingest.buffered.waiting", waiters, ConcurrentLinkedQueue::size)
                .description("Agent connections not read because their next frame does not fit the budget")
                .register(registry);
    }

    /** Reserves {@code bytes} if they fit (or nothing is reserved at all). */
    boolean tryReserve(long bytes) {
        while (true) {
            long now = reserved.get();
            if (now > 0 && now + bytes > capacity) {
                return false;
            }
            if (reserved.compareAndSet(now, now + bytes)) {
                return true;
            }
        }
    }

    /** Queues a connection to be told when room may be there. */
    void await(Waiter waiter) {
        waiters.add(waiter);
        if (reserved.get() == 0) {
            wake(); // everything was released in between
        }
    }

    void release(long bytes) {
        if (bytes > 0) {
            reserved.addAndGet(-bytes);
            wake();
        }
    }

    /** Tells waiting connections, oldest first, as long as what they want may fit. */
    private void wake() {
        long room = capacity - reserved.get();
        Waiter w;
        while ((w = waiters.peek()) != null && (room >= w.wanted() || room == capacity)) {
            if (waiters.remove(w)) {
                room -= w.wanted();
                w.retry();
            }
        }
    }

    long reserved() {
        return reserved.get();
    }

    long capacity() {
        return capacity;
    }
}
