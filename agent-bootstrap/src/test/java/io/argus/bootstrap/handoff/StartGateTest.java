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
}
