package io.argus.core.state;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A bounded map from library objects (statements, connections, tasks, threads) to agent data,
 * keyed by identity and holding its keys weakly, so an object the application drops frees its
 * entry. A look-up takes no lock and allocates nothing, nor does removing a key that is not there;
 * writers take one of 16 striped locks.
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
        volatile V value;
        volatile Entry<V> next;

        Entry(Object key, int hash, V value, Entry<V> next, ReferenceQueue<Object> queue) {
            super(key, queue);
            this.hash = hash;
            this.value = value;
            this.next = next;
        }
    }

    /**
     * Writers hold the stripe's lock; readers hold none. A reader walks a chain whose links a writer
     * may be changing: an unlinked entry keeps its {@code next}, so the walk goes on; a resize copies
     * the entries into a new table, leaving the old table's chains intact for a walk already in it.
     */
    private static final class Stripe<V> {
        private final ReferenceQueue<Object> collected = new ReferenceQueue<Object>();
        private final AtomicInteger totalSize;
        private volatile AtomicReferenceArray<Entry<V>> table = new AtomicReferenceArray<Entry<V>>(16);
        private int count;

        Stripe(AtomicInteger totalSize) {
            this.totalSize = totalSize;
        }

        private static int index(int hash, AtomicReferenceArray<?> table) {
            return (hash >>> 4) & (table.length() - 1);
        }

        /** Without the lock: volatile reads only. */
        V get(Object key, int hash) {
            Entry<V> e = find(table, key, hash);
            return e == null ? null : e.value;
        }

        private static <V> Entry<V> find(AtomicReferenceArray<Entry<V>> t, Object key, int hash) {
            for (Entry<V> e = t.get(index(hash, t)); e != null; e = e.next) {
                if (e.hash == hash && e.get() == key) {
                    return e;
                }
            }
            return null;
        }

        synchronized boolean put(Object key, int hash, V value, int maxSize) {
            purge();
            AtomicReferenceArray<Entry<V>> t = table;
            Entry<V> existing = find(t, key, hash);
            if (existing != null) {
                existing.value = value;
                return true;
            }
            if (totalSize.get() >= maxSize) {
                return false;
            }
            int index = index(hash, t);
            t.set(index, new Entry<V>(key, hash, value, t.get(index), collected));
            count++;
            totalSize.incrementAndGet();
            if (count > t.length() - (t.length() >>> 2)) {
                resize();
            }
            return true;
        }

        synchronized boolean putIfAbsent(Object key, int hash, V value, int maxSize) {
            return find(table, key, hash) == null && put(key, hash, value, maxSize);
        }

        /** Removes the key's entry (only while its value is {@code expected}, when that is not null). */
        V remove(Object key, int hash, V expected) {
            if (find(table, key, hash) == null) {
                // the common case (an object that never held anything here) takes no lock
                return null;
            }
            return removeLocked(key, hash, expected);
        }

        private synchronized V removeLocked(Object key, int hash, V expected) {
            purge();
            AtomicReferenceArray<Entry<V>> t = table;
            int index = index(hash, t);
            Entry<V> previous = null;
            for (Entry<V> e = t.get(index); e != null; previous = e, e = e.next) {
                if (e.hash == hash && e.get() == key) {
                    if (expected != null && e.value != expected) {
                        return null;
                    }
                    V value = e.value;
                    unlink(t, index, previous, e);
                    return value;
                }
            }
            return null;
        }

        private void unlink(AtomicReferenceArray<Entry<V>> t, int index, Entry<V> previous, Entry<V> e) {
            if (previous == null) {
                t.set(index, e.next);
            } else {
                previous.next = e.next;
            }
            count--;
            totalSize.decrementAndGet();
        }

        /** Drops the entries whose keys were collected. */
        @SuppressWarnings("unchecked")
        private void purge() {
            Object ref;
            while ((ref = collected.poll()) != null) {
                Entry<V> dead = (Entry<V>) ref;
                AtomicReferenceArray<Entry<V>> t = table;
                int index = index(dead.hash, t);
                Entry<V> previous = null;
                for (Entry<V> e = t.get(index); e != null; previous = e, e = e.next) {
                    if (e == dead) {
                        unlink(t, index, previous, e);
                        break;
                    }
                }
            }
        }

        /** Copies the live entries into a table twice the size; readers in the old one are undisturbed. */
        private void resize() {
            AtomicReferenceArray<Entry<V>> old = table;
            AtomicReferenceArray<Entry<V>> grown = new AtomicReferenceArray<Entry<V>>(old.length() * 2);
            int live = 0;
            for (int i = 0; i < old.length(); i++) {
                for (Entry<V> e = old.get(i); e != null; e = e.next) {
                    Object key = e.get();
                    if (key != null) {
                        int index = index(e.hash, grown);
                        grown.set(index, new Entry<V>(key, e.hash, e.value, grown.get(index), collected));
                        live++;
                    }
                }
            }
            totalSize.addAndGet(live - count);
            count = live;
            table = grown;
        }
    }
}
