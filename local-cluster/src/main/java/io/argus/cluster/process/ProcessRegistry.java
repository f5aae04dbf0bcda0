package io.argus.cluster.process;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Every child process started through {@link ManagedProcess} that has not stopped yet. A JVM shutdown hook kills
 * them all, so that neither a failure nor Ctrl-C (SIGINT/SIGTERM) leaves a server, a target, a collector
 * or a Gatling JVM behind.
 */
public final class ProcessRegistry {

    private static final Set<ManagedProcess> LIVE = new LinkedHashSet<>();
    private static boolean hooked;

    private ProcessRegistry() {
    }

    static synchronized void register(ManagedProcess p) {
        if (!hooked) {
            Runtime.getRuntime().addShutdownHook(new Thread(ProcessRegistry::killAll, "argus-process-cleanup"));
            hooked = true;
        }
        LIVE.add(p);
    }

    static synchronized void unregister(ManagedProcess p) {
        LIVE.remove(p);
    }

    public static synchronized List<ManagedProcess> live() {
        return new ArrayList<>(LIVE);
    }

    /** Stops every live child, newest first. */
    public static void stopAll(long graceMillis) {
        List<ManagedProcess> all = live();
        for (int i = all.size() - 1; i >= 0; i--) {
            all.get(i).stop(graceMillis);
        }
    }

    static void killAll() {
        for (ManagedProcess p : live()) {
            p.kill();
        }
    }
}
