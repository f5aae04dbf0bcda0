package io.argus.cluster.process;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A child process whose stdout and stderr (merged) are copied line by line to a log file by a
 * daemon thread, which also remembers the first line matching each watched pattern. Every
 * process is registered with {@link ProcessRegistry} so that it is killed when the harness
 * exits, whatever the reason.
 */
public final class ManagedProcess implements AutoCloseable {

    private final String name;
    private final Process process;
    private final long spawnNanos;
    private final Path log;
    private final Map<String, Pattern> watched;
    private final Map<String, String> firstMatches = new ConcurrentHashMap<>();
    private final Deque<String> tail = new ArrayDeque<>();
    private final Thread pump;

    private ManagedProcess(String name, Process process, long spawnNanos, Path log, Map<String, Pattern> watched) {
        this.name = name;
        this.process = process;
        this.spawnNanos = spawnNanos;
        this.log = log;
        this.watched = watched;
        this.pump = new Thread(this::pump, "log-" + name);
        this.pump.setDaemon(true);
        this.pump.start();
    }

    /**
     * Starts {@code command}. {@link #spawnNanos()} is taken immediately before the fork, so that
     * start-up delays measured from it include the whole launch.
     *
     * @param watched pattern name to pattern; {@link #awaitMatch} returns the first matching line
     */
    public static ManagedProcess start(String name, List<String> command, Path workDir, Map<String, String> env,
                                       Path log, Map<String, Pattern> watched) throws IOException {
        return start(name, command, workDir, env, false, log, watched);
    }

    /**
     * {@link #start}, without the agent settings this JVM's environment may carry ({@code ARGUS_*},
     * {@code OTEL_*}, {@code JAVA_TOOL_OPTIONS}, {@code JDK_JAVA_OPTIONS}): a benchmark's JVMs
     * get exactly the agent flags of their configuration.
     */
    public static ManagedProcess startIsolated(String name, List<String> command, Path workDir, Map<String, String> env,
                                               Path log, Map<String, Pattern> watched) throws IOException {
        return start(name, command, workDir, env, true, log, watched);
    }

    private static ManagedProcess start(String name, List<String> command, Path workDir, Map<String, String> env,
                                        boolean isolated, Path log, Map<String, Pattern> watched) throws IOException {
        Files.createDirectories(log.toAbsolutePath().getParent());
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        if (workDir != null) {
            Files.createDirectories(workDir);
            pb.directory(workDir.toFile());
        }
        if (isolated) {
            pb.environment().keySet().removeIf(k -> k.startsWith("ARGUS_") || k.startsWith("OTEL_"));
            pb.environment().remove("JAVA_TOOL_OPTIONS");
            pb.environment().remove("JDK_JAVA_OPTIONS");
        }
        if (env != null) {
            pb.environment().putAll(env);
        }
        Files.writeString(log, "# " + String.join(" ", command) + System.lineSeparator(), StandardCharsets.UTF_8);
        long spawn = System.nanoTime();
        Process p = pb.start();
        ManagedProcess mp = new ManagedProcess(name, p, spawn, log, watched == null ? Map.of() : Map.copyOf(watched));
        ProcessRegistry.register(mp);
        return mp;
    }

    private void pump() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
             BufferedWriter out = Files.newBufferedWriter(log, StandardCharsets.UTF_8,
                     java.nio.file.StandardOpenOption.APPEND)) {
            String line;
            while ((line = in.readLine()) != null) {
                out.write(line);
                out.newLine();
                synchronized (tail) {
                    tail.addLast(line);
                    if (tail.size() > 40) {
                        tail.removeFirst();
                    }
                }
                for (Map.Entry<String, Pattern> e : watched.entrySet()) {
                    if (!firstMatches.containsKey(e.getKey()) && e.getValue().matcher(line).find()) {
                        firstMatches.put(e.getKey(), line);
                        synchronized (this) {
                            notifyAll();
                        }
                    }
                }
                if (!in.ready()) {
                    out.flush();
                }
            }
        } catch (IOException ignored) {
            // the process went away
        } finally {
            synchronized (this) {
                notifyAll();
            }
        }
    }

    public String name() {
        return name;
    }

    public long pid() {
        return process.pid();
    }

    public long spawnNanos() {
        return spawnNanos;
    }

    public Path log() {
        return log;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public Process process() {
        return process;
    }

    /** The first line that matched the named pattern so far, or null. */
    public String match(String key) {
        return firstMatches.get(key);
    }

    /** Waits until the named pattern matched, the output ended, or the timeout passed. */
    public String awaitMatch(String key, long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        synchronized (this) {
            while (!firstMatches.containsKey(key) && pump.isAlive()) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    break;
                }
                wait(Math.min(left, 50));
            }
        }
        return firstMatches.get(key);
    }

    /** The first group of the named pattern's first match, as a long, or null. */
    public Long matchedNumber(String key) {
        String line = firstMatches.get(key);
        if (line == null) {
            return null;
        }
        Matcher m = watched.get(key).matcher(line);
        if (m.find() && m.groupCount() >= 1 && m.group(1) != null) {
            try {
                return Long.parseLong(m.group(1));
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return null;
    }

    /**
     * Waits for the process to exit and its output to be logged; false when it still runs after
     * {@code timeout}.
     */
    public boolean waitFor(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            return false;
        }
        pump.join(5000);
        ProcessRegistry.unregister(this);
        return true;
    }

    public int exitValue() {
        return process.exitValue();
    }

    /** Every line of output so far, from the log (after {@link #waitFor}: all of it). */
    public List<String> output() throws IOException {
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        return lines.isEmpty() ? lines : lines.subList(1, lines.size());
    }

    /** The last lines of output, for error messages. */
    public List<String> tail() {
        synchronized (tail) {
            return new ArrayList<>(tail);
        }
    }

    public String describeTail(int lines) {
        List<String> t = tail();
        List<String> last = t.subList(Math.max(0, t.size() - lines), t.size());
        return String.join(System.lineSeparator(), last);
    }

    /**
     * SIGTERM to the process and its descendants, then SIGKILL after {@code graceMillis}.
     * Safe to call more than once.
     */
    public void stop(long graceMillis) {
        List<ProcessHandle> descendants = new ArrayList<>();
        try {
            process.descendants().forEach(descendants::add);
        } catch (RuntimeException ignored) {
            // already gone
        }
        process.destroy();
        descendants.forEach(ProcessHandle::destroy);
        try {
            if (!process.waitFor(graceMillis, TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        for (ProcessHandle d : descendants) {
            if (d.isAlive()) {
                d.destroyForcibly();
            }
        }
        try {
            pump.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        ProcessRegistry.unregister(this);
    }

    /** Immediate SIGKILL of the process and its descendants (shutdown hook path). */
    void kill() {
        try {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
        } catch (RuntimeException ignored) {
            // gone
        }
        process.destroyForcibly();
    }

    @Override
    public void close() {
        stop(5000);
    }

    @Override
    public String toString() {
        return name + "(pid " + pid() + ")";
    }
}
