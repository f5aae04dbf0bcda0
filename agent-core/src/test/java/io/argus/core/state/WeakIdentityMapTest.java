package io.argus.core.state;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class WeakIdentityMapTest {

    /** Equal but distinct keys must not share an entry. */
    @Test
    void keysByIdentity() {
        WeakIdentityMap<String> map = new WeakIdentityMap<>(100);
        String a = new String("k");
        String b = new String("k");
        assertThat(map.put(a, "A")).isTrue();
        assertThat(map.put(b, "B")).isTrue();
        assertThat(map.get(a)).isEqualTo("A");
        assertThat(map.get(b)).isEqualTo("B");
        assertThat(map.size()).isEqualTo(2);
        assertThat(map.remove(a)).isEqualTo("A");
        assertThat(map.get(a)).isNull();
        assertThat(map.size()).isEqualTo(1);
    }

    @Test
    void putIfAbsentKeepsTheFirstValueAndConditionalRemoveOnlyTakesItsOwn() {
        WeakIdentityMap<String> map = new WeakIdentityMap<>(1);
        Object key = new Object();
        String first = new String("v");
        String second = new String("v");
        assertThat(map.putIfAbsent(key, first)).isTrue();
        assertThat(map.putIfAbsent(key, second)).isFalse();
        assertThat(map.get(key)).isSameAs(first);
        assertThat(map.putIfAbsent(new Object(), "full")).isFalse();
        assertThat(map.remove(key, second)).as("an equal but other value").isFalse();
        assertThat(map.get(key)).isSameAs(first);
        assertThat(map.remove(key, first)).isTrue();
        assertThat(map.get(key)).isNull();
        assertThat(map.size()).isZero();
        assertThat(map.remove(key, first)).isFalse();
    }

    @Test
    void boundedAndGrowing() {
        WeakIdentityMap<Integer> map = new WeakIdentityMap<>(1000);
        List<Object> keys = new ArrayList<>();
        for (int i = 0; i < 1500; i++) {
            Object key = new Object();
            keys.add(key);
            boolean stored = map.put(key, i);
            assertThat(stored).isEqualTo(i < 1000);
        }
        for (int i = 0; i < 1000; i++) {
            assertThat(map.get(keys.get(i))).isEqualTo(i);
        }
        assertThat(map.put(keys.get(3), 33)).as("an existing key may always be updated").isTrue();
        assertThat(map.get(keys.get(3))).isEqualTo(33);
    }

    @Test
    void collectedKeysFreeTheirEntries() throws Exception {
        WeakIdentityMap<byte[]> map = new WeakIdentityMap<>(100);
        for (int i = 0; i < 100; i++) {
            map.put(new Object(), new byte[16]);
        }
        assertThat(map.size()).isEqualTo(100);
        Object survivor = new Object();
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!map.put(survivor, new byte[1]) && System.nanoTime() < deadline) {
            System.gc();
            Thread.sleep(20);
        }
        assertThat(map.get(survivor)).isNotNull();
        assertThat(map.size()).isLessThan(100);
    }

    /** Reads take no lock: while writers add, remove and grow the tables, a key that stays mapped is always found. */
    @Test
    void readersWithoutTheLockNeverMissAKeyThatStaysWhileWritersGrowAndShrinkTheMap() throws Exception {
        WeakIdentityMap<Integer> map = new WeakIdentityMap<>(1_000_000);
        List<Object> stable = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            Object key = new Object();
            stable.add(key);
            map.put(key, i);
        }
        java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicLong misses = new java.util.concurrent.atomic.AtomicLong();
        java.util.concurrent.atomic.AtomicLong reads = new java.util.concurrent.atomic.AtomicLong();
        Thread writer = new Thread(() -> {
            for (int round = 0; round < 20; round++) {
                List<Object> transients = new ArrayList<>();
                for (int i = 0; i < 20_000; i++) {
                    Object key = new Object();
                    transients.add(key);
                    map.put(key, i);
                }
                for (Object key : transients) {
                    map.remove(key);
                }
            }
            done.set(true);
        });
        Thread reader = new Thread(() -> {
            while (!done.get()) {
                for (int i = 0; i < stable.size(); i++) {
                    Integer value = map.get(stable.get(i));
                    reads.incrementAndGet();
                    if (value == null || value != i) {
                        misses.incrementAndGet();
                    }
                }
            }
        });
        reader.start();
        writer.start();
        writer.join(60_000);
        reader.join(10_000);
        assertThat(done).isTrue();
        assertThat(reads.get()).isPositive();
        assertThat(misses.get()).isZero();
        assertThat(map.size()).isEqualTo(64);
        assertThat(map.remove(new Object())).as("an absent key").isNull();
    }
}
