package io.argus.core;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.TimeUnit;

/**
 * Lowers the scheduling priority of the calling thread on Linux, so that on a small machine the
 * application's own start-up goes first and the agent's start-up uses what CPU is left. Java thread priorities
 * do nothing here (HotSpot ignores them on Linux without root), but Linux gives every thread its own
 * nice value: the thread finds its id through {@code /proc/thread-self} and runs {@code renice} on
 * it. Only ever lowers the priority, relative to the thread's current nice value, so it needs no
 * privilege. Anywhere else (no {@code /proc}, no {@code renice}) the thread keeps its priority.
 */
final class StartThreadNiceness {

    private static final int MAX_NICE = 19;
    private static final long RENICE_TIMEOUT_MILLIS = 2_000;

    private StartThreadNiceness() {
    }

    /** Raises the calling thread's nice value by {@code increment} (capped at 19); true if it did. */
    static boolean lowerCurrentThread(int increment) {
        if (increment <= 0) {
            return false;
        }
        Path self = Paths.get("/proc/thread-self");
        try {
            if (!Files.isSymbolicLink(self)) {
                AgentLog.debug("start-up thread keeps its priority: no /proc/thread-self");
                return false;
            }
            Path link = Files.readSymbolicLink(self);
            String tid = link.getFileName().toString();
            int current = currentNice(new String(Files.readAllBytes(self.resolve("stat")), StandardCharsets.US_ASCII));
            int target = Math.min(MAX_NICE, current + increment);
            if (target <= current) {
                return false;
            }
            Process renice = new ProcessBuilder("renice", "-n", Integer.toString(target), "-p", tid)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.to(new File("/dev/null")))
                    .start();
            if (!renice.waitFor(RENICE_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)) {
                renice.destroy();
                AgentLog.debug("start-up thread keeps its priority: renice did not finish");
                return false;
            }
            if (renice.exitValue() != 0) {
                AgentLog.debug("start-up thread keeps its priority: renice exited with " + renice.exitValue());
                return false;
            }
            AgentLog.debug("start-up thread " + tid + " runs at nice " + target);
            return true;
        } catch (Exception e) {
            AgentLog.debug("start-up thread keeps its priority: " + e);
            return false;
        } catch (LinkageError e) {
            AgentLog.debug("start-up thread keeps its priority: " + e);
            return false;
        }
    }

    /** Field 19 of {@code /proc/<pid>/task/<tid>/stat}, counted after the parenthesised command name. */
    static int currentNice(String stat) {
        int close = stat.lastIndexOf(')');
        String[] fields = stat.substring(close + 2).trim().split(" ");
        // fields[0] is the state (field 3), so the nice value (field 19) is fields[16]
        return Integer.parseInt(fields[16]);
    }
}
