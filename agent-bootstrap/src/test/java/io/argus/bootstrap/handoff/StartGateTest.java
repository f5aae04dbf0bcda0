package io.argus.bootstrap.handoff;

import org.junit.jupiter.api.Test;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class StartGateTest {

    private static final byte[] CLASS_FILE = {1, 2, 3};
    private static final byte[] WOVEN = {4, 5, 6};
    private static final ClassFileTransformer ENGINE = new ClassFileTransformer() {
        @Override
        public byte[] transform(ClassLoader loader, String name, Class<?> redefined, ProtectionDomain domain,
                                byte[] bytes) {
            return WOVEN;
        }
    };

    private final StartGate gate = StartGate.holding(ProbeCandidates.builder().type("com.example.Server").build());

    @Test
    void otherClassesGoThroughAtOnce() throws Exception {
        assertThat(gate.transform(getClass().getClassLoader(), "com/example/Other", null, null, CLASS_FILE)).isNull();
        assertThat(gate.heldClasses()).isZero();
    }

    @Test
    void aProbedClassWaitsForTheEngineAndIsInstrumentedAsItLoads() throws Exception {
        CountDownLatch loading = new CountDownLatch(1);
        CompletableFuture<byte[]> load = CompletableFuture.supplyAsync(() -> {
            loading.countDown();
            try {
                return gate.transform(getClass().getClassLoader(), "com/example/Server", null, null, CLASS_FILE);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        loading.await();
        Thread.sleep(100);
        assertThat(load).isNotDone();
        gate.open(ENGINE);
        assertThat(load.get(10, TimeUnit.SECONDS)).isEqualTo(WOVEN);
        assertThat(gate.heldClasses()).isEqualTo(1);
        assertThat(gate.heldNanos()).isPositive();
        assertThat(gate.isOpen()).isTrue();
        assertThat(gate.openedAtMillis()).isPositive();
    }

    @Test
    void onceOpenEveryClassGoesToTheEngine() throws Exception {
        gate.open(ENGINE);
        assertThat(gate.transform(null, "com/example/Other", null, null, CLASS_FILE)).isEqualTo(WOVEN);
        assertThat(gate.transform(null, "com/example/Other", String.class, null, CLASS_FILE)).isEqualTo(WOVEN);
    }

    @Test
    void theStartThreadAndRetransformationsAreNeverHeld() throws Exception {
        gate.startThread(Thread.currentThread());
        assertThat(gate.transform(null, "com/example/Server", null, null, CLASS_FILE)).isNull();
        StartGate other = StartGate.holding(ProbeCandidates.builder().type("com.example.Server").build());
        assertThat(other.transform(null, "com/example/Server", String.class, null, CLASS_FILE)).isNull();
    }

    @Test
    void aFailedEngineReleasesWhatWaits() throws Exception {
        CompletableFuture<byte[]> load = CompletableFuture.supplyAsync(() -> {
            try {
                return gate.transform(null, "com/example/Server", null, null, CLASS_FILE);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        gate.fail();
        assertThat(load.get(10, TimeUnit.SECONDS)).isNull();
        assertThat(gate.passedUnprobed()).isZero();
        assertThat(gate.transform(null, "com/example/Server", null, null, CLASS_FILE)).isNull();
    }

    @Test
    void aGateThatDoesNotHoldLetsEverythingThrough() throws Exception {
        StartGate late = StartGate.notHolding();
        assertThat(late.transform(null, "com/example/Server", null, null, CLASS_FILE)).isNull();
        late.open(ENGINE);
        assertThat(late.transform(null, "com/example/Server", null, null, CLASS_FILE)).isEqualTo(WOVEN);
    }

    private static final byte[] KEPT = {7, 8, 9};

    /** The class cache before the engine: knows {@code com/example/Server}, and {@code com/example/Plain} as it is. */
    private static final ClassFileTransformer CACHE = new ClassFileTransformer() {
        @Override
        public byte[] transform(ClassLoader loader, String name, Class<?> redefined, ProtectionDomain domain,
                                byte[] bytes) {
            return name.equals("com/example/Server") ? KEPT : name.equals("com/example/Plain") ? bytes : null;
        }
    };

    private CompletableFuture<byte[]> loadAsync(StartGate gate, String name, CountDownLatch loading) {
        return CompletableFuture.supplyAsync(() -> {
            loading.countDown();
            try {
                return gate.transform(getClass().getClassLoader(), name, null, null, CLASS_FILE);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    @Test
    void aClassTheCacheKeepsIsDefinedFromItWithoutWaiting() throws Exception {
        StartGate gate = StartGate.holding(ProbeCandidates.builder().type("com.example.Server").type("com.example.Plain").build());
        gate.serveEarly(CACHE);
        assertThat(gate.transform(getClass().getClassLoader(), "com/example/Server", null, null, CLASS_FILE)).isEqualTo(KEPT);
        // "as it is": the class file it was given back means no change
        assertThat(gate.transform(getClass().getClassLoader(), "com/example/Plain", null, null, CLASS_FILE)).isNull();
        assertThat(gate.heldClasses()).isZero();
        assertThat(gate.isOpen()).isFalse();
    }

    @Test
    void aClassWaitingWhenTheCacheArrivesIsDefinedFromIt() throws Exception {
        CountDownLatch loading = new CountDownLatch(1);
        CompletableFuture<byte[]> load = loadAsync(gate, "com/example/Server", loading);
        loading.await();
        Thread.sleep(100);
        assertThat(load).isNotDone();
        gate.serveEarly(CACHE);
        assertThat(load.get(10, TimeUnit.SECONDS)).isEqualTo(KEPT);
        assertThat(gate.heldClasses()).isEqualTo(1);
        assertThat(gate.isOpen()).isFalse();
    }

    @Test
    void aClassTheCacheMissesStillWaitsForTheEngine() throws Exception {
        StartGate gate = StartGate.holding(ProbeCandidates.builder().type("com.example.Other").build());
        gate.serveEarly(CACHE);
        CountDownLatch loading = new CountDownLatch(1);
        CompletableFuture<byte[]> load = loadAsync(gate, "com/example/Other", loading);
        loading.await();
        Thread.sleep(100);
        assertThat(load).isNotDone();
        gate.open(ENGINE);
        assertThat(load.get(10, TimeUnit.SECONDS)).isEqualTo(WOVEN);
    }

    @Test
    void aClassTheCacheMissesAsksForTheEngineAtOnce() throws Exception {
        StartGate gate = StartGate.holding(ProbeCandidates.builder().type("com.example.Server").type("com.example.Other").build());
        gate.serveEarly(CACHE);
        gate.transform(getClass().getClassLoader(), "com/example/Server", null, null, CLASS_FILE);
        assertThat(gate.awaitDemand(50)).as("a class the cache served asks for nothing").isFalse();

        CountDownLatch loading = new CountDownLatch(1);
        CompletableFuture<byte[]> load = loadAsync(gate, "com/example/Other", loading);
        loading.await();
        assertThat(gate.awaitDemand(10_000)).as("the one it missed does").isTrue();
        assertThat(gate.isDemanded()).isTrue();
        assertThat(load).isNotDone();
        gate.open(ENGINE);
        assertThat(load.get(10, TimeUnit.SECONDS)).isEqualTo(WOVEN);
    }

    @Test
    void aClassWaitingForTheCacheToArriveAsksForNoEngine() throws Exception {
        CountDownLatch loading = new CountDownLatch(1);
        CompletableFuture<byte[]> load = loadAsync(gate, "com/example/Server", loading);
        loading.await();
        assertThat(gate.awaitDemand(100)).as("the cache may serve it yet").isFalse();
        gate.serveEarly(CACHE);
        assertThat(load.get(10, TimeUnit.SECONDS)).isEqualTo(KEPT);
        assertThat(gate.isDemanded()).isFalse();
    }

    @Test
    void aFailedEngineStopsTheCacheServing() throws Exception {
        gate.serveEarly(CACHE);
        gate.fail();
        assertThat(gate.transform(getClass().getClassLoader(), "com/example/Server", null, null, CLASS_FILE)).isNull();
    }
}
