package io.argus.core.instrument;

import io.argus.core.AgentLog;
import io.argus.core.plugin.TypeProbe;

import java.lang.instrument.Instrumentation;
import java.util.Collections;

/**
 * The {@link AdviceWarmUp} weave on a thread of its own, started as soon as the bridge is in, beside the
 * loading of the plugins: when the application loads a probed class early (a small service loads its
 * server's classes within a hundred milliseconds) it waits at the start gate for the engine, and then for
 * ByteBuddy's cold advice machinery. Warmed up in parallel, the second wait mostly goes, on any machine
 * with a second core.
 */
public final class EarlyWarmUp {

    private EarlyWarmUp() {
    }

    /** Starts the warm-up thread, a daemon at the caller's priority; returns it. */
    public static Thread start(final Instrumentation inst, final ClassLoader agentLoader) {
        Thread thread = new Thread(new Runnable() {
            @Override
            public void run() {
                try {
                    new AdviceWeaver(Collections.<TypeProbe>emptyList(), agentLoader,
                            new HelperInjector(agentLoader, inst)).warmUp(agentLoader);
                } catch (Throwable t) {
                    AgentLog.warn("the instrumentation engine's warm-up failed", t);
                }
            }
        }, "argus-warm-up");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }
}
