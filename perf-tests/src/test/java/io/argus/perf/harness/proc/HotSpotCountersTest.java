package io.argus.perf.harness.proc;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class HotSpotCountersTest {

    @Test
    void readsTheLoadedClassCountOfARunningJvmWithoutAttaching() {
        long pid = ProcessHandle.current().pid();
        Map<String, Long> before = HotSpotCounters.read(pid);
        assertThat(before.get(HotSpotCounters.LOADED_CLASSES)).as("this JVM's own count").isGreaterThan(500L);
        // a class this test has not touched yet
        assertThat(new java.util.zip.Adler32()).isNotNull();
        assertThat(HotSpotCounters.read(pid).get(HotSpotCounters.LOADED_CLASSES))
                .isGreaterThanOrEqualTo(before.get(HotSpotCounters.LOADED_CLASSES));
        assertThat(HotSpotCounters.allLoadedClasses(pid)).as("class files and the CDS archive")
                .isGreaterThan(before.get(HotSpotCounters.LOADED_CLASSES));
    }

    @Test
    void aProcessWithoutCountersGivesNone() {
        assertThat(HotSpotCounters.read(Long.MAX_VALUE)).isEmpty();
    }
}
