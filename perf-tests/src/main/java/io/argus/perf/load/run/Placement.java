package io.argus.perf.load.run;

import io.argus.perf.harness.proc.Taskset;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Where the processes of a run may execute. {@code shared}: nothing is pinned, targets, collector and
 * load generator share every CPU (the co-located view). {@code separate}: the target processes are
 * pinned to the first half of the CPUs and the collector plus the load generator (the harness, which
 * runs the closed loop, and Gatling) to the second half, with {@code taskset}, as if the collector
 * and the load came from another host. On 2 CPUs: targets on CPU 0, collector and load on CPU 1.
 */
public final class Placement {

    public static final String SHARED = "shared";
    public static final String SEPARATE = "separate";
    public static final List<String> NAMES = List.of(SHARED, SEPARATE);

    private final String name;
    private final String targetCpus;
    private final String loadCpus;

    private Placement(String name, String targetCpus, String loadCpus) {
        this.name = name;
        this.targetCpus = targetCpus;
        this.loadCpus = loadCpus;
    }

    public static Placement shared() {
        return new Placement(SHARED, null, null);
    }

    /** Targets on CPUs 0 .. cpus/2 - 1, collector and load on cpus/2 .. cpus - 1; needs 2 CPUs or more. */
    public static Placement separate(int cpus) {
        if (cpus < 2) {
            throw new IllegalArgumentException("--placement separate needs at least 2 CPUs, this machine has " + cpus);
        }
        int half = cpus / 2;
        return new Placement(SEPARATE, range(0, half - 1), range(half, cpus - 1));
    }

    /** The placement named on the command line, for a machine with {@code cpus} CPUs. */
    public static Placement of(String name, int cpus) {
        return switch (name) {
            case SHARED -> shared();
            case SEPARATE -> separate(cpus);
            default -> throw new IllegalArgumentException("unknown placement '" + name + "'; known: "
                    + String.join(", ", NAMES));
        };
    }

    private static String range(int from, int to) {
        return from == to ? Integer.toString(from) : from + "-" + to;
    }

    public String name() {
        return name;
    }

    public boolean isSeparate() {
        return targetCpus != null;
    }

    /** The target processes' CPU list; null when nothing is pinned. */
    public String targetCpus() {
        return targetCpus;
    }

    /** The collector's and load generator's CPU list; null when nothing is pinned. */
    public String loadCpus() {
        return loadCpus;
    }

    /** The prefix of a target process's command: {@code taskset -c <target cpus>}, or nothing. */
    public List<String> targetPrefix() {
        return isSeparate() ? Taskset.on(targetCpus) : List.of();
    }

    /** The prefix of the collector's and Gatling's command: {@code taskset -c <load cpus>}, or nothing. */
    public List<String> loadPrefix() {
        return isSeparate() ? Taskset.on(loadCpus) : List.of();
    }

    /** {@code prefix} followed by {@code command}. */
    public static List<String> prefixed(List<String> prefix, List<String> command) {
        List<String> out = new ArrayList<>(prefix.size() + command.size());
        out.addAll(prefix);
        out.addAll(command);
        return out;
    }

    /**
     * {@code separate}: moves every thread of this JVM (the closed loop's client, the readiness probes)
     * to the load CPUs; the threads it starts later inherit them.
     *
     * @return this JVM's CPU list before, to restore with {@link #restoreHarness}; null for {@code shared}
     */
    public String pinHarness() throws IOException, InterruptedException {
        if (!isSeparate()) {
            return null;
        }
        long pid = ProcessHandle.current().pid();
        String before = Taskset.cpusOf(pid);
        Taskset.pinAllThreads(pid, loadCpus);
        return before;
    }

    public static void restoreHarness(String cpus) {
        if (cpus == null) {
            return;
        }
        try {
            Taskset.pinAllThreads(ProcessHandle.current().pid(), cpus);
        } catch (IOException | InterruptedException e) {
            // the harness is about to end anyway
        }
    }

    /** One sentence for the report's method. */
    public String describe() {
        if (!isSeparate()) {
            return "Placement **shared** (co-located): nothing is pinned; the target processes, the collector and the "
                    + "load generator (the harness's closed loop and Gatling) share all CPUs. The peer agents export "
                    + "nothing while Argus exports to a collector on the same CPUs, so this view charges the "
                    + "collector's work to the Argus scenarios; `--placement separate` gives the other view.";
        }
        return "Placement **separate** (a simulated separate host): with `taskset`, the target processes run on CPU "
                + targetCpus + " and the collector plus the load generator (the harness's closed loop and Gatling) on "
                + "CPU " + loadCpus + ", in every scenario alike, the baseline included. The application's figures do "
                + "not pay for the collector's work, which is reported as a cost of its own (collector CPU per span); "
                + "`--placement shared` gives the co-located view.";
    }
}
