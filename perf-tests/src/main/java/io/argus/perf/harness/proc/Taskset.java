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
        return List.of("taskset", "-c", Integer.toString(cpu));
    }
}
