package io.argus.core;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StartThreadNicenessTest {

    @Test
    void readsTheNiceValueAfterACommandNameWithSpacesAndParentheses() {
        String stat = "4242 (argus (init) x) S 1 4242 4242 0 -1 4194560 10 0 0 0 3 1 0 0 30 10 1 0 99 1000 20";
        assertEquals(10, StartThreadNiceness.currentNice(stat));
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void lowersOnlyTheCallingThreadAndNeverBeyondNineteen() throws Exception {
        int processNice = StartThreadNiceness.currentNice(stat("/proc/self/stat"));
        AtomicReference<Boolean> lowered = new AtomicReference<Boolean>();
        AtomicInteger niceAfter = new AtomicInteger(-100);
        AtomicReference<Boolean> loweredAgain = new AtomicReference<Boolean>();
        AtomicInteger niceAtCap = new AtomicInteger(-100);
        Thread thread = new Thread(() -> {
            try {
                lowered.set(StartThreadNiceness.lowerCurrentThread(5));
                niceAfter.set(StartThreadNiceness.currentNice(stat("/proc/thread-self/stat")));
                loweredAgain.set(StartThreadNiceness.lowerCurrentThread(40));
                niceAtCap.set(StartThreadNiceness.currentNice(stat("/proc/thread-self/stat")));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, "nice-test");
        thread.start();
        thread.join();

        assertTrue(lowered.get(), "renice of the calling thread");
        assertEquals(Math.min(19, processNice + 5), niceAfter.get());
        assertEquals(19, niceAtCap.get());
        assertEquals(niceAfter.get() < 19, loweredAgain.get());
        assertEquals(processNice, StartThreadNiceness.currentNice(stat("/proc/thread-self/stat")),
                "the test's own thread keeps its priority");
    }

    @Test
    void anIncrementOfZeroLeavesThePriorityAlone() {
        assertFalse(StartThreadNiceness.lowerCurrentThread(0));
    }

    private static String stat(String path) throws Exception {
        return new String(Files.readAllBytes(Paths.get(path)), StandardCharsets.US_ASCII);
    }
}
