package io.argus.perf.harness.proc;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** CPU pinning of child processes with util-linux's {@code taskset}. */
public final class Taskset {

    private Taskset() {
    }

    /** True when {@code taskset} runs here. */
    public static boolean available() {
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

    /** The command prefix that runs a command on {@code cpu}. */
    public static List<String> on(int cpu) {
        return on(Integer.toString(cpu));
    }

    /** The command prefix that runs a command on a CPU list such as {@code 0}, {@code 2-3} or {@code 0,2}. */
    public static List<String> on(String cpus) {
        return List.of("taskset", "-c", cpus);
    }

    /** The CPU list a running process may use ({@code taskset -c -p}), e.g. {@code 0,1} or {@code 0-3}. */
    public static String cpusOf(long pid) throws IOException, InterruptedException {
        String out = run("-c", "-p", Long.toString(pid));
        int colon = out.lastIndexOf(':');
        return out.substring(colon + 1).trim();
    }

    /** Moves every thread of a running process to {@code cpus} ({@code taskset -a -c -p}); new threads inherit it. */
    public static void pinAllThreads(long pid, String cpus) throws IOException, InterruptedException {
        run("-a", "-c", "-p", cpus, Long.toString(pid));
    }

    private static String run(String... args) throws IOException, InterruptedException {
        List<String> cmd = new java.util.ArrayList<>();
        cmd.add("taskset");
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).trim();
        if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException(String.join(" ", cmd) + " failed: " + out);
        }
        return out;
    }
}
