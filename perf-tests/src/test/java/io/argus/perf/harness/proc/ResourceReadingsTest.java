package io.argus.perf.harness.proc;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** CPU from /proc and allocation over JMX, read from a forked JVM that allocates about 100 MB a second. */
class ResourceReadingsTest {

    private static Process app;

    @BeforeAll
    static void fork() throws Exception {
        app = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx64m", "-cp",
                System.getProperty("java.class.path"), AllocatingApp.class.getName()).redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(app.getInputStream(), StandardCharsets.UTF_8));
        assertThat(out.readLine()).isEqualTo("allocating");
    }

    @AfterAll
    static void kill() {
        app.destroyForcibly();
    }

    @Test
    void cpuFromEveryThreadsRunTime() throws Exception {
        CpuReading a = CpuReading.of(app.pid());
        Thread.sleep(300);
        CpuReading b = CpuReading.of(app.pid());
        assertThat(a.threadNanos()).isPositive();
        assertThat(a.threads()).isNotEmpty();
        assertThat(b.millisSince(a)).isPositive();
        // the nanosecond sum and the ticks describe the same CPU time
        assertThat(b.threadNanos() / 1e6).isCloseTo(b.statMillis(), org.assertj.core.data.Offset.offset(200.0));
    }

    @Test
    void aThreadEndingFallsBackToTheTicks() {
        CpuReading before = new CpuReading(5_000_000, Set.of(1L, 2L), 100);
        CpuReading sameThreads = new CpuReading(9_000_000, Set.of(1L, 2L, 3L), 110);
        CpuReading oneEnded = new CpuReading(7_000_000, Set.of(1L), 120);
        assertThat(sameThreads.millisSince(before)).isEqualTo(4.0);
        assertThat(oneEnded.millisSince(before)).isEqualTo(20.0);
        assertThat(new CpuReading(-1, Set.of(), -1).millisSince(before)).isNaN();
        assertThat(CpuReading.parseRunNanos("123456 789 10\n")).isEqualTo(123456);
    }

    @Test
    void allocationOverALocalJmxConnectionWithoutItsOwnThreads() throws Exception {
        try (AllocationMeter meter = AllocationMeter.attach(app.pid())) {
            Map<Long, Long> a = meter.read();
            Thread.sleep(500);
            Map<Long, Long> b = meter.read();
            AllocationMeter.Window w = AllocationMeter.between(a, b);
            // about 50 MB in half a second; at least a tenth of it on a busy machine
            assertThat(w.bytes()).isGreaterThan(5_000_000L);
            assertThat(w.threadsEnded()).isZero();
        }
        assertThat(AllocationMeter.isMeasurementThread("RMI TCP Connection(3)-127.0.0.1")).isTrue();
        assertThat(AllocationMeter.isMeasurementThread("JMX server connection timeout 25")).isTrue();
        assertThat(AllocationMeter.isMeasurementThread("Attach Listener")).isTrue();
        assertThat(AllocationMeter.isMeasurementThread("main")).isFalse();
        assertThat(AllocationMeter.isMeasurementThread("qtp1234-17")).isFalse();
    }

    @Test
    void allocationWindows() {
        Map<Long, Long> before = Map.of(1L, 1000L, 2L, 500L);
        Map<Long, Long> after = Map.of(1L, 4000L, 3L, 700L);
        AllocationMeter.Window w = AllocationMeter.between(before, after);
        assertThat(w.bytes()).as("thread 1's growth and the new thread 3's all").isEqualTo(3000 + 700);
        assertThat(w.threadsEnded()).isEqualTo(1);
        assertThat(new HashSet<>(after.keySet())).contains(3L);
    }

    @Test
    void aJvmThatIsGoneSaysSo() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> AllocationMeter.attach(Long.MAX_VALUE / 2))
                .isInstanceOf(java.io.IOException.class).hasMessageContaining("cannot attach");
    }
}
