package io.argus.core;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

class SpareCpuGateTest {

    @Test
    void aWindowHasASpareCoreOnlyWhenTheMachineIdledOneCoreAndThisJvmLeftOneUnused() {
        // 2 cores, 100 ms: 20 ticks in all
        assertThat(SpareCpuGate.isSpare(10, 20, 2, 5, 0.1, 2)).as("one core idle, the JVM used half a core").isTrue();
        assertThat(SpareCpuGate.isSpare(6, 20, 2, 5, 0.1, 2)).as("the machine idle for 0.6 of a core").isFalse();
        assertThat(SpareCpuGate.isSpare(12, 20, 2, 14, 0.1, 2)).as("this JVM used 1.4 of its 2 cores").isFalse();
        assertThat(SpareCpuGate.isSpare(60, 80, 8, 5, 0.1, 2))
                .as("a container of 2 CPUs on an idle 8-core host, the JVM at half a core").isTrue();
        assertThat(SpareCpuGate.isSpare(60, 80, 8, 15, 0.1, 2)).as("the same JVM at 1.5 cores of its 2").isFalse();
        assertThat(SpareCpuGate.isSpare(0, 0, 2, 0, 0.1, 2)).as("no ticks counted yet").isFalse();
    }

    @Test
    void readsTheMachineAndProcessCountersOfProc() {
        String machine = "cpu  100 5 50 1000 20 1 2 3 0 0\ncpu0 50 2 25 500 10 0 1 1 0 0\ncpu1 50 3 25 500 10 1 1 2 0 0\n"
                + "intr 1 2 3\nctxt 99\n";
        assertThat(SpareCpuGate.machineTicks(machine)).containsExactly(1020, 1181, 2);
        String self = "4242 (java (argus) x) S 1 4242 4242 0 -1 4194560 10 0 0 0 37 5 0 0 20 0 30 0 99 1000 20";
        assertThat(SpareCpuGate.processTicks(self)).isEqualTo(42);
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void aPauseThatEndsTheWaitOpensTheGateAtOnce() {
        java.util.concurrent.atomic.AtomicInteger pauses = new java.util.concurrent.atomic.AtomicInteger();
        long waited = SpareCpuGate.await(60_000, millis -> pauses.incrementAndGet() == 2);
        assertThat(pauses.get()).as("the second pause ended it").isEqualTo(2);
        assertThat(waited).isLessThan(10_000);
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void opensOnAnIdleMachineAndGivesUpAtTheDeadlineOnABusyOne() throws Exception {
        assertThat(SpareCpuGate.await(0)).as("0 does not wait").isZero();
        int cores = Runtime.getRuntime().availableProcessors();
        String stat = new String(Files.readAllBytes(Paths.get("/proc/loadavg")), StandardCharsets.US_ASCII);
        if (Double.parseDouble(stat.split(" ")[0]) < cores - 1) {
            assertThat(SpareCpuGate.await(5_000)).as("a machine with a core to spare").isLessThan(5_000);
        }
        AtomicBoolean spin = new AtomicBoolean(true);
        Thread[] spinners = new Thread[cores];
        for (int i = 0; i < cores; i++) {
            spinners[i] = new Thread(() -> {
                long x = 0;
                while (spin.get()) {
                    x += System.nanoTime() % 7;
                }
                if (x == 42) {
                    System.out.print("");
                }
            });
            spinners[i].start();
        }
        try {
            Thread.sleep(200);
            assertThat(SpareCpuGate.await(800)).as("every core busy in this JVM: the deadline").isGreaterThanOrEqualTo(800);
        } finally {
            spin.set(false);
            for (Thread t : spinners) {
                t.join();
            }
        }
    }
}
