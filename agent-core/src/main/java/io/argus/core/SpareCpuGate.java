package io.argus.core;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Holds the agent's start-up work until the machine has a core to spare, or until a deadline: on a
 * small machine a JVM's own start-up keeps the cores busy for its first second or so, and any work
 * beside it (even at a lower priority: the JIT compiles the agent's code, the collector runs for its
 * garbage) delays the application. Waiting here costs nothing: the thread sleeps.
 *
 * <p>Every {@value #WINDOW_MILLIS} ms it reads the CPU time the whole machine spent idle
 * ({@code /proc/stat}) and this JVM used ({@code /proc/self/stat}). A core is spare when the machine
 * was idle for at least one core's worth of the window and this JVM left at least one of the cores
 * it may use ({@link Runtime#availableProcessors}, which follows a container's CPU limit) unused;
 * {@value #SPARE_WINDOWS} such windows in a row open the gate. Without {@code /proc} it opens at once.
 */
final class SpareCpuGate {

    static final int WINDOW_MILLIS = 100;
    static final int SPARE_WINDOWS = 3;
    /** Linux reports CPU times in clock ticks of 1/100 s (USER_HZ) on every mainstream architecture. */
    private static final double TICKS_PER_SECOND = 100.0;

    private static final Path MACHINE = Paths.get("/proc/stat");
    private static final Path SELF = Paths.get("/proc/self/stat");

    /** How the gate passes a window: asleep, or until something ends the wait early. */
    interface Pause {
        /** Pauses up to {@code millis}; true when the wait is to end at once. */
        boolean pause(long millis) throws InterruptedException;
    }

    private static final Pause SLEEP = new Pause() {
        @Override
        public boolean pause(long millis) throws InterruptedException {
            Thread.sleep(millis);
            return false;
        }
    };

    private SpareCpuGate() {
    }

    /** Waits for a spare core, at most {@code maxWaitMillis}; returns the milliseconds it waited. */
    static long await(long maxWaitMillis) {
        return await(maxWaitMillis, SLEEP);
    }

    /** As {@link #await(long)}, each window passed with {@code pause}, which can end the wait early. */
    static long await(long maxWaitMillis, Pause pause) {
        long start = System.nanoTime();
        if (maxWaitMillis <= 0) {
            return 0;
        }
        int usable = Runtime.getRuntime().availableProcessors();
        try {
            long[] machine = machineTicks(read(MACHINE));
            long self = processTicks(read(SELF));
            long sampledAt = System.nanoTime();
            int spareInARow = 0;
            while (spareInARow < SPARE_WINDOWS) {
                long waited = (System.nanoTime() - start) / 1_000_000;
                if (waited >= maxWaitMillis) {
                    AgentLog.debug("start-up: no spare core within " + maxWaitMillis + " ms; starting anyway");
                    return waited;
                }
                if (pause.pause(Math.min(WINDOW_MILLIS, maxWaitMillis - waited))) {
                    return (System.nanoTime() - start) / 1_000_000;
                }
                long[] machineNow = machineTicks(read(MACHINE));
                long selfNow = processTicks(read(SELF));
                long now = System.nanoTime();
                double seconds = (now - sampledAt) / 1e9;
                boolean spare = isSpare(machineNow[0] - machine[0], machineNow[1] - machine[1], machineNow[2],
                        selfNow - self, seconds, usable);
                spareInARow = spare ? spareInARow + 1 : 0;
                machine = machineNow;
                self = selfNow;
                sampledAt = now;
            }
        } catch (IOException e) {
            AgentLog.debug("start-up does not wait for a spare core: " + e);
        } catch (RuntimeException e) {
            AgentLog.debug("start-up does not wait for a spare core: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return (System.nanoTime() - start) / 1_000_000;
    }

    /**
     * Whether a window had a spare core: the machine idle for at least one core's worth of it, and this
     * JVM at least one core below what it may use.
     */
    static boolean isSpare(long idleTicks, long totalTicks, long machineCores, long selfTicks, double seconds,
                           int usableCores) {
        if (totalTicks <= 0 || seconds <= 0) {
            return false;
        }
        double idleCores = machineCores * (double) idleTicks / totalTicks;
        double selfCores = selfTicks / TICKS_PER_SECOND / seconds;
        return idleCores >= 1.0 && usableCores - selfCores >= 1.0;
    }

    /** From {@code /proc/stat}: idle ticks (idle + iowait), all ticks, and the number of cores. */
    static long[] machineTicks(String stat) {
        String[] lines = stat.split("\n");
        String[] fields = lines[0].trim().split("\\s+");
        if (!fields[0].equals("cpu")) {
            throw new IllegalArgumentException("unexpected /proc/stat: " + lines[0]);
        }
        long total = 0;
        // user nice system idle iowait irq softirq steal; guest time is already in user
        for (int i = 1; i < Math.min(fields.length, 9); i++) {
            total += Long.parseLong(fields[i]);
        }
        long idle = Long.parseLong(fields[4]) + (fields.length > 5 ? Long.parseLong(fields[5]) : 0);
        long cores = 0;
        for (int i = 1; i < lines.length; i++) {
            if (lines[i].startsWith("cpu")) {
                cores++;
            }
        }
        return new long[]{idle, total, Math.max(1, cores)};
    }

    /** From {@code /proc/self/stat}: user + system ticks of this process (fields 14 and 15). */
    static long processTicks(String stat) {
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        // fields[0] is the state (field 3), so utime (field 14) is fields[11]
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }

    private static String read(Path path) throws IOException {
        return new String(Files.readAllBytes(path), StandardCharsets.US_ASCII);
    }
}
