package io.argus.perf.harness.proc;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ProcStatsTest {

    @Test
    void cpuTicksSurviveSpacesAndParenthesesInTheCommandName() {
        // fields: pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime ...
        String stat = "4242 (java (x) y) S 1 4242 4242 0 -1 4194560 1000 0 0 0 1234 567 0 0 20 0 40 0 100 0 0";
        assertThat(ProcStats.parseCpuTicks(stat)).isEqualTo(1234 + 567);
    }

    @Test
    void ownProcessIsReadable() {
        long pid = ProcessHandle.current().pid();
        assertThat(ProcStats.cpuMillis(pid)).isPositive();
        Map<String, Long> status = ProcStats.status(pid);
        assertThat(status.get("VmHWM")).isPositive();
        assertThat(status.get("Threads")).isPositive();
        assertThat(ProcStats.clockTicksPerSecond()).isPositive();
    }

    @Test
    void jstatGcColumns() {
        String out = """
                    S0C         S1C         S0U         S1U          EC           EU           OC           OU          MC         MU       CCSC      CCSU     YGC     YGCT     FGC    FGCT     CGC    CGCT       GCT  \s
                        0.0     4096.0        0.0     4096.0     155648.0      12288.0      102400.0      20480.0     40960.0    40000.0    5120.0    4800.0      7     0.050     1     0.030     2     0.004     0.084
                """;
        Map<String, Double> gc = ProcStats.parseJstat(out);
        assertThat(ProcStats.gcCount(gc)).isEqualTo(10);
        assertThat(ProcStats.gcTimeMs(gc)).isEqualTo(84.0);
        assertThat(ProcStats.heapUsedKb(gc)).isEqualTo(4096 + 12288 + 20480);
        assertThat(ProcStats.gcCount(null)).isNull();
    }
}
