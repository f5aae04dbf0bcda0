package io.argus.perf.moobench;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Child processes of the benchmark: output merged and copied to a log file by a daemon thread
 * (so the child never blocks on a full pipe), and killed by a shutdown hook if the controller
 * ends first (Ctrl-C, failure).
 */
final class ChildProcesses {

    private static final Set<Process> LIVE = Collections.synchronizedSet(new LinkedHashSet<>());

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            List<Process> all;
            synchronized (LIVE) {
                all = new ArrayList<>(LIVE);
            }
            for (Process p : all) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            }
        }, "moobench-cleanup"));
    }

    private ChildProcesses() {
    }

    /** A started child and the lines it printed so far. */
    static final class Child {
        final Process process;
        final Path log;
        private final List<String> lines = Collections.synchronizedList(new ArrayList<>());
        private final Thread pump;

        Child(Process process, Path log) {
            this.process = process;
            this.log = log;
            this.pump = new Thread(this::pump, "moobench-log");
            this.pump.setDaemon(true);
            this.pump.start();
        }

        private void pump() {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                 BufferedWriter out = Files.newBufferedWriter(log, StandardCharsets.UTF_8, StandardOpenOption.APPEND)) {
                String line;
                while ((line = in.readLine()) != null) {
                    lines.add(line);
                    out.write(line);
                    out.newLine();
                    out.flush();
                }
            } catch (IOException ignored) {
                // the process ended
            }
        }

        List<String> lines() {
            synchronized (lines) {
                return new ArrayList<>(lines);
            }
        }

        /** The first line {@code match} accepts, waiting up to {@code timeoutMillis}; null if none. */
        String await(Predicate<String> match, long timeoutMillis) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
            int checked = 0;
            while (true) {
                List<String> now = lines();
                for (; checked < now.size(); checked++) {
                    if (match.test(now.get(checked))) {
                        return now.get(checked);
                    }
                }
                if (!process.isAlive() && !pump.isAlive()) {
                    return null;
                }
                if (System.nanoTime() > deadline) {
                    return null;
                }
                Thread.sleep(20);
            }
        }

        /** Waits for the process to exit and for its output to be read; false on timeout. */
        boolean waitFor(long timeoutSeconds) throws InterruptedException {
            boolean exited = process.waitFor(timeoutSeconds, TimeUnit.SECONDS);
            if (exited) {
                pump.join(5000);
                LIVE.remove(process);
            }
            return exited;
        }

        /** SIGTERM, then SIGKILL after {@code graceMillis}. */
        void stop(long graceMillis) throws InterruptedException {
            if (process.isAlive()) {
                process.destroy();
                if (!process.waitFor(graceMillis, TimeUnit.MILLISECONDS)) {
                    process.descendants().forEach(ProcessHandle::destroyForcibly);
                    process.destroyForcibly();
                    process.waitFor(5, TimeUnit.SECONDS);
                }
            }
            pump.join(5000);
            LIVE.remove(process);
        }

        String tail(int n) {
            List<String> all = lines();
            return String.join(System.lineSeparator(), all.subList(Math.max(0, all.size() - n), all.size()));
        }
    }

    static Child start(List<String> command, Path log, java.util.Map<String, String> env) throws IOException {
        Files.createDirectories(log.toAbsolutePath().getParent());
        Files.writeString(log, "# " + String.join(" ", command) + System.lineSeparator(), StandardCharsets.UTF_8);
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().keySet().removeIf(k -> k.startsWith("ARGUS_") || k.startsWith("OTEL_"));
        pb.environment().remove("JAVA_TOOL_OPTIONS");
        pb.environment().remove("JDK_JAVA_OPTIONS");
        if (env != null) {
            pb.environment().putAll(env);
        }
        Process p = pb.start();
        LIVE.add(p);
        return new Child(p, log);
    }

    /** True when {@code taskset} runs here (util-linux). */
    static boolean tasksetAvailable() {
        try {
            Process p = new ProcessBuilder("taskset", "-p", Long.toString(ProcessHandle.current().pid()))
                    .redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
