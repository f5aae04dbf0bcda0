package io.argus.core;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.ArgusHooks;
import io.argus.core.trace.WeakIdentityMap;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Client calls in flight whose end is seen on another thread, remembered under the identity of a
 * library object that has no room for the agent's state (a Jetty request): their start time and
 * span (null when untraced) until the call ends. This is what keeps such a plugin's untraced path
 * allocation-free, where a request attribute would box the start time.
 *
 * <p>A fixed open-addressing table, created on first use: a carrier may sit in any of
 * {@value #WINDOW} slots from its identity hash. Remembering a call claims a free slot with one
 * compare-and-set; ending it finds the slot and frees it with another. Neither takes a lock or
 * allocates. When a carrier's window is full, the oldest call in it moves to a weak, bounded map
 * (one small object), so long calls and abandoned carriers (a call that never ends) give way to new
 * ones; an abandoned carrier is held strongly only until then.
 *
 * <p>Slot protocol: a slot holds null (free), {@link #BUSY} (being written or read by the thread
 * that claimed it) or its carrier. The start and span are written while the slot is BUSY and
 * published by the volatile write of the carrier; whoever moves the slot from its carrier to BUSY
 * owns it, so a call is ended at most once, from the table or from the map.
 */
final class PendingClientCalls {

    static final int CAPACITY = 4096;
    static final int WINDOW = 16;
    static final int MAX_MOVED = 100_000;

    private static final Object BUSY = new Object();

    private final int capacity;
    private final AgentCounters counters;
    private final WeakIdentityMap<Moved> moved;
    private volatile Table table;

    PendingClientCalls(AgentCounters counters) {
        this(counters, CAPACITY, MAX_MOVED);
    }

    PendingClientCalls(AgentCounters counters, int capacity, int maxMoved) {
        if (Integer.bitCount(capacity) != 1 || capacity < WINDOW) {
            throw new IllegalArgumentException("capacity must be a power of two of at least " + WINDOW);
        }
        this.capacity = capacity;
        this.counters = counters;
        this.moved = new WeakIdentityMap<Moved>(maxMoved);
    }

    void put(Object carrier, ActiveSpan span, long startNanos) {
        if (carrier == null) {
            return;
        }
        Table t = table;
        if (t == null) {
            t = createTable();
        }
        int base = t.base(carrier);
        for (int i = 0; i < WINDOW; i++) {
            int slot = (base + i) & t.mask;
            if (t.carriers.get(slot) == null && t.carriers.compareAndSet(slot, null, BUSY)) {
                t.fill(slot, carrier, span, startNanos);
                return;
            }
        }
        int oldest = t.oldest(base);
        if (oldest >= 0 && t.moveToMap(oldest, moved)) {
            // the slot is ours (BUSY) now
            t.fill(oldest, carrier, span, startNanos);
            return;
        }
        if (!moved.put(carrier, new Moved(startNanos, span))) {
            counters.droppedBindings.incrementAndGet();
        }
    }

    /**
     * Ends the call remembered for {@code carrier} through {@code target.clientEnd}; false when none
     * is remembered.
     */
    boolean end(Object carrier, ArgusHooks target, String method, String host, int status, Throwable error) {
        if (carrier == null) {
            return false;
        }
        Table t = table;
        if (t != null) {
            int base = t.base(carrier);
            for (int i = 0; i < WINDOW; i++) {
                int slot = (base + i) & t.mask;
                if (t.carriers.get(slot) == carrier && t.carriers.compareAndSet(slot, carrier, BUSY)) {
                    long startNanos = t.starts[slot];
                    ActiveSpan span = t.spans[slot];
                    t.spans[slot] = null;
                    t.carriers.set(slot, null);
                    target.clientEnd(span, startNanos, method, host, status, error);
                    return true;
                }
            }
        }
        if (moved.size() != 0) {
            Moved call = moved.remove(carrier);
            if (call != null) {
                target.clientEnd(call.span, call.startNanos, method, host, status, error);
                return true;
            }
        }
        return false;
    }

    /** Calls held in the table and in the map, for tests. */
    int size() {
        Table t = table;
        int n = moved.size();
        if (t != null) {
            for (int i = 0; i < t.carriers.length(); i++) {
                Object c = t.carriers.get(i);
                if (c != null && c != BUSY) {
                    n++;
                }
            }
        }
        return n;
    }

    private synchronized Table createTable() {
        Table t = table;
        if (t == null) {
            t = new Table(capacity);
            table = t;
        }
        return t;
    }

    private static final class Table {
        final int mask;
        final AtomicReferenceArray<Object> carriers;
        final long[] starts;
        final ActiveSpan[] spans;

        Table(int capacity) {
            mask = capacity - 1;
            carriers = new AtomicReferenceArray<Object>(capacity);
            starts = new long[capacity];
            spans = new ActiveSpan[capacity];
        }

        int base(Object carrier) {
            int h = System.identityHashCode(carrier);
            return (h ^ (h >>> 16)) & mask;
        }

        /** Writes a claimed (BUSY) slot and publishes it. */
        void fill(int slot, Object carrier, ActiveSpan span, long startNanos) {
            starts[slot] = startNanos;
            spans[slot] = span;
            carriers.set(slot, carrier);
        }

        /** The slot of the window holding the earliest start, or -1; racy reads, a heuristic only. */
        int oldest(int base) {
            int oldest = -1;
            long oldestStart = 0;
            for (int i = 0; i < WINDOW; i++) {
                int slot = (base + i) & mask;
                Object c = carriers.get(slot);
                if (c != null && c != BUSY && (oldest < 0 || starts[slot] - oldestStart < 0)) {
                    oldest = slot;
                    oldestStart = starts[slot];
                }
            }
            return oldest;
        }

        /**
         * Moves the call in {@code slot} to the map and leaves the slot claimed (BUSY) by the caller.
         * The map gets the call first, so that its end, should it come meanwhile, finds it in one
         * place or the other. Only one thread's copy can be in the map ({@code putIfAbsent}); if the
         * slot changed in between (the call ended, or another thread moved it), that copy is taken
         * out again, and only that copy.
         */
        boolean moveToMap(int slot, WeakIdentityMap<Moved> moved) {
            Object carrier = carriers.get(slot);
            if (carrier == null || carrier == BUSY) {
                return false;
            }
            Moved copy = new Moved(starts[slot], spans[slot]);
            if (!moved.putIfAbsent(carrier, copy)) {
                return false;
            }
            if (carriers.compareAndSet(slot, carrier, BUSY)) {
                spans[slot] = null;
                return true;
            }
            moved.remove(carrier, copy);
            return false;
        }
    }

    private static final class Moved {
        final long startNanos;
        final ActiveSpan span;

        Moved(long startNanos, ActiveSpan span) {
            this.startNanos = startNanos;
            this.span = span;
        }
    }
}
