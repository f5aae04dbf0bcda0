package io.argus.core.state;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A bounded map from library objects (statements, connections, tasks, threads) to agent data,
 * keyed by identity and holding its keys weakly, so an object the application drops frees its
 * entry. Striped locks keep application threads from contending; a look-up allocates nothing.
 * Full means full: {@link #put} refuses new keys beyond {@code maxSize} and the caller counts it.
 */
public final class WeakIdentityMap<V> {

    private static final int STRIPES = 16;

    private final Stripe<V>[] stripes;
    private final AtomicInteger size = new AtomicInteger();
    private final int maxSize;

    @SuppressWarnings("unchecked")
    public WeakIdentityMap(int maxSize) {
        this.maxSize = maxSize;
        this.stripes = new Stripe[STRIPES];
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new Stripe<V>(size);
        }
    }

    /** Entries held, including ones whose key was just collected and not yet purged. */
    public int size() {
        return size.get();
    }

    public V get(Object key) {
        if (key == null) {
            return null;
        }
        int hash = hash(key);
        return stripes[hash & (STRIPES - 1)].get(key, hash);
    }

    /** Maps {@code key} to {@code value}; false (and nothing stored) when the map is full and the key is new. */
    public boolean put(Object key, V value) {
        if (key == null || value == null) {
            return false;
        }
        int hash = hash(key);
        return stripes[hash & (STRIPES - 1)].put(key, hash, value, maxSize);
    }

    /**
     * Maps {@code key} to {@code value} unless it is mapped already; false (and nothing stored) when
     * it is, or when the map is full.
     */
    public boolean putIfAbsent(Object key, V value) {
        if (key == null || value == null) {
            return false;
        }
        int hash = hash(key);
        return stripes[hash & (STRIPES - 1)].putIfAbsent(key, hash, value, maxSize);
    }

    public V remove(Object key) {
        if (key == null) {
            return null;
        }
        int hash = hash(key);
        return stripes[hash & (STRIPES - 1)].remove(key, hash, null);
    }

    /** Removes {@code key} only while it is mapped to {@code value} (the same object); true when it was. */
    public boolean remove(Object key, V value) {
        if (key == null || value == null) {
            return false;
        }
        int hash = hash(key);
        return stripes[hash & (STRIPES - 1)].remove(key, hash, value) != null;
    }

    private static int hash(Object key) {
        int h = System.identityHashCode(key);
        return h ^ (h >>> 16);
    }

    private static final class Entry<V> extends WeakReference<Object> {
        final int hash;
        V value;
        Entry<V> next;

        Entry(Object key, int hash, V value, Entry<V> next, ReferenceQueue<Object> queue) {
            super(key, queue);
            this.hash = hash;
            this.value = value;
            this.next = next;
        }
    }

    private static final class Stripe<V> {
        private final ReferenceQueue<Object> collected = new ReferenceQueue<Object>();
        private final AtomicInteger totalSize;
        private Entry<V>[] table = newTable(16);
        private int count;

        Stripe(AtomicInteger totalSize) {
            this.totalSize = totalSize;
        }

        @SuppressWarnings("unchecked")
        private static <V> Entry<V>[] newTable(int n) {
            return new Entry[n];
        }

        synchronized V get(Object key, int hash) {
            Entry<V>[] t = table;
            for (Entry<V> e = t[(hash >>> 4) & (t.length - 1)]; e != null; e = e.next) {
                if (e.hash == hash && e.get() == key) {
                    return e.value;
                }
            }
            return null;
        }

        synchronized boolean put(Object key, int hash, V value, int maxSize) {
            purge();
            int index = (hash >>> 4) & (table.length - 1);
            for (Entry<V> e = table[index]; e != null; e = e.next) {
                if (e.hash == hash && e.get() == key) {
                    e.value = value;
                    return true;
                }
            }
            if (totalSize.get() >= maxSize) {
                return false;
            }
            table[index] = new Entry<V>(key, hash, value, table[index], collected);
            count++;
            totalSize.incrementAndGet();
            if (count > table.length - (table.length >>> 2)) {
                resize();
            }
            return true;
        }

        synchronized boolean putIfAbsent(Object key, int hash, V value, int maxSize) {
            int index = (hash >>> 4) & (table.length - 1);
            for (Entry<V> e = table[index]; e != null; e = e.next) {
                if (e.hash == hash && e.get() == key) {
                    return false;
                }
            }
            return put(key, hash, value, maxSize);
        }

        /** Removes the key's entry (only while its value is {@code expected}, when that is not null). */
        synchronized V remove(Object key, int hash, V expected) {
            purge();
            int index = (hash >>> 4) & (table.length - 1);
            Entry<V> previous = null;
            for (Entry<V> e = table[index]; e != null; previous = e, e = e.next) {
                if (e.hash == hash && e.get() == key) {
                    if (expected != null && e.value != expected) {
                        return null;
                    }
                    V value = e.value;
                    unlink(index, previous, e);
                    return value;
                }
            }
            return null;
        }

        private void unlink(int index, Entry<V> previous, Entry<V> e) {
            if (previous == null) {
                table[index] = e.next;
            } else {
                previous.next = e.next;
            }
            e.value = null;
            count--;
            totalSize.decrementAndGet();
        }

        /** Drops the entries whose keys were collected. */
        @SuppressWarnings("unchecked")
        private void purge() {
            Object ref;
            while ((ref = collected.poll()) != null) {
                Entry<V> dead = (Entry<V>) ref;
                int index = (dead.hash >>> 4) & (table.length - 1);
                Entry<V> previous = null;
                for (Entry<V> e = table[index]; e != null; previous = e, e = e.next) {
                    if (e == dead) {
                        unlink(index, previous, e);
                        break;
                    }
                }
            }
        }

        private void resize() {
            Entry<V>[] old = table;
            Entry<V>[] grown = newTable(old.length * 2);
            for (Entry<V> head : old) {
                Entry<V> e = head;
                while (e != null) {
                    Entry<V> next = e.next;
                    int index = (e.hash >>> 4) & (grown.length - 1);
                    e.next = grown[index];
                    grown[index] = e;
                    e = next;
                }
            }
            table = grown;
        }
    }
}
