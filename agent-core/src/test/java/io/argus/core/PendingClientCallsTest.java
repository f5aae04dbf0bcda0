package io.argus.core;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.ArgusHooks;
import io.argus.core.metrics.HttpMetricsTable;
import io.argus.core.metrics.HttpStats;
import io.argus.core.trace.RecordedSpan;
import io.argus.core.trace.Sampler;
import io.argus.core.trace.Tracer;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** Calls remembered under a carrier's identity until they end, the way the jetty-client advice uses them. */
class PendingClientCallsTest {

    /** One clientEnd call as the table made it. */
    record Ended(ActiveSpan span, long startNanos, String host, int status) {
    }

    private final List<Ended> ended = new ArrayList<>();
    private final ArgusHooks recorder = (ArgusHooks) Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] {ArgusHooks.class}, (proxy, method, args) -> {
                if (method.getName().equals("clientEnd")) {
                    synchronized (ended) {
                        ended.add(new Ended((ActiveSpan) args[0], (Long) args[1], (String) args[3], (Integer) args[4]));
                    }
                }
                return null;
            });

    @Test
    void aCallEndsOnceWithItsOwnStartAndSpanOnAnotherThread() throws Exception {
        PendingClientCalls calls = new PendingClientCalls(new AgentCounters());
        Tracer tracer = new Tracer(new Sampler(100), s -> { });
        RecordedSpan parent = tracer.startServer("GET", "/", null, null, null);
        RecordedSpan span = tracer.startClient("GET", "traced", 80, "http://traced/");
        Object untraced = new Object();
        Object traced = new Object();
        calls.put(untraced, null, 111);
        calls.put(traced, span, 222);
        assertThat(calls.size()).isEqualTo(2);

        boolean[] found = new boolean[2];
        Thread other = new Thread(() -> {
            found[0] = calls.end(traced, recorder, "GET", "traced", 200, null);
            found[1] = calls.end(untraced, recorder, "GET", "untraced", 404, null);
        });
        other.start();
        other.join();
        assertThat(found).containsExactly(true, true);

        assertThat(ended).containsExactly(new Ended(span, 222, "traced", 200), new Ended(null, 111, "untraced", 404));
        assertThat(calls.end(traced, recorder, "GET", "traced", 200, null)).isFalse();
        assertThat(calls.end(new Object(), recorder, "GET", "never", 200, null)).isFalse();
        assertThat(calls.end(null, recorder, "GET", "null", 200, null)).isFalse();
        assertThat(ended).hasSize(2);
        assertThat(calls.size()).isZero();
        tracer.end(parent, System.nanoTime(), null, false);
    }

    @Test
    void whenTheWindowIsFullTheOldestCallsMoveToTheMapAndStillEnd() {
        AgentCounters counters = new AgentCounters();
        PendingClientCalls calls = new PendingClientCalls(counters, PendingClientCalls.WINDOW, 1000);
        int n = PendingClientCalls.WINDOW * 3;
        List<Object> carriers = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Object carrier = new Object();
            carriers.add(carrier);
            calls.put(carrier, null, 1000 + i);
        }
        assertThat(calls.size()).isEqualTo(n);
        for (int i = n - 1; i >= 0; i--) {
            assertThat(calls.end(carriers.get(i), recorder, "GET", "h" + i, 200, null)).isTrue();
        }
        for (int i = 0; i < n; i++) {
            assertThat(ended.get(n - 1 - i)).isEqualTo(new Ended(null, 1000 + i, "h" + i, 200));
        }
        assertThat(calls.size()).isZero();
        assertThat(counters.droppedBindings.get()).isZero();
    }

    @Test
    void beyondTheMapsBoundACallIsDroppedAndCounted() {
        AgentCounters counters = new AgentCounters();
        PendingClientCalls calls = new PendingClientCalls(counters, PendingClientCalls.WINDOW, 2);
        List<Object> carriers = new ArrayList<>();
        for (int i = 0; i < PendingClientCalls.WINDOW + 3; i++) {
            Object carrier = new Object();
            carriers.add(carrier);
            calls.put(carrier, null, i);
        }
        assertThat(counters.droppedBindings.get()).isEqualTo(1);
        int found = 0;
        for (Object carrier : carriers) {
            found += calls.end(carrier, recorder, "GET", "h", 200, null) ? 1 : 0;
        }
        assertThat(found).isEqualTo(PendingClientCalls.WINDOW + 2);
    }

    @Test
    void concurrentCallsEachEndExactlyOnce() throws Exception {
        // a small table, so that windows fill up and calls move to the map while others end
        PendingClientCalls calls = new PendingClientCalls(new AgentCounters(), 64, 100_000);
        int producers = 3;
        int perProducer = 20_000;
        LinkedBlockingQueue<Object[]> inFlight = new LinkedBlockingQueue<>();
        Map<Object, Long> starts = new ConcurrentHashMap<>();
        Map<Long, AtomicInteger> endedStarts = new ConcurrentHashMap<>();
        ArgusHooks counting = (ArgusHooks) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {ArgusHooks.class}, (proxy, method, args) -> {
                    if (method.getName().equals("clientEnd")) {
                        endedStarts.computeIfAbsent((Long) args[1], k -> new AtomicInteger()).incrementAndGet();
                    }
                    return null;
                });
        AtomicInteger misses = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(producers);
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int id = p;
            threads.add(new Thread(() -> {
                for (int i = 0; i < perProducer; i++) {
                    Object carrier = new Object();
                    long start = (long) id * perProducer + i + 1;
                    starts.put(carrier, start);
                    calls.put(carrier, null, start);
                    inFlight.add(new Object[] {carrier});
                }
                done.countDown();
            }));
        }
        for (int c = 0; c < 2; c++) {
            threads.add(new Thread(() -> {
                try {
                    while (true) {
                        Object[] next = inFlight.poll(100, TimeUnit.MILLISECONDS);
                        if (next == null) {
                            if (done.getCount() == 0 && inFlight.isEmpty()) {
                                return;
                            }
                            continue;
                        }
                        if (!calls.end(next[0], counting, "GET", "h", 200, null)) {
                            misses.incrementAndGet();
                        }
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join(60_000);
        }
        assertThat(misses.get()).isZero();
        assertThat(endedStarts).hasSize(producers * perProducer);
        assertThat(endedStarts.values()).allMatch(count -> count.get() == 1);
        assertThat(calls.size()).isZero();
    }

    @Test
    void rememberingAndEndingAllocateNothing() {
        HttpMetricsTable client = new HttpMetricsTable(10);
        CoreHooks hooks = new CoreHooks(new Tracer(new Sampler(0), s -> { }), new HttpMetricsTable(10), client,
                new AgentCounters());
        Object[] carriers = new Object[256];
        for (int i = 0; i < carriers.length; i++) {
            carriers[i] = new Object();
        }
        // warm up: the table, the metric cell, the identity hashes, the JIT
        for (int round = 0; round < 200; round++) {
            putAndEnd(hooks, carriers);
        }
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int round = 0; round < 200; round++) {
            putAndEnd(hooks, carriers);
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        // 51,200 calls; a single boxed start per call would be 800 KB
        assertThat(allocated).isLessThan(1024);
        HttpStats.Snapshot cell = client.takeSnapshots().get(0);
        assertThat(cell.count).isEqualTo(400L * carriers.length);
    }

    private static void putAndEnd(CoreHooks hooks, Object[] carriers) {
        long now = System.nanoTime();
        for (Object carrier : carriers) {
            hooks.clientPending(carrier, null, now);
        }
        for (Object carrier : carriers) {
            hooks.clientEndPending(carrier, "GET", "h", 200, null);
        }
    }
}
