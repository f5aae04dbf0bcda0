package io.argus.bridge;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Whether the agent observes this JVM yet, for the application, its health checks and scripts: the agent
 * sets it when its probes are in, and from then on every request the application serves is observed.
 * Read with reflection (the class exists only with the agent, and only once it has defined the bridge):
 * {@code Class.forName("io.argus.bridge.AgentStatus", true, null).getMethod("observingSinceMillis")}.
 */
public final class AgentStatus {

    /** How long advice that runs before the agent is ready waits for it, at most (as the start gate holds a class). */
    public static final int MAX_WAIT_SECONDS = 60;

    private static volatile long observingSinceMillis;
    /** Counted down once the agent is ready, or has failed: from then on nothing waits for it. */
    private static final CountDownLatch SETTLED = new CountDownLatch(1);
    /** Set once the agent may define a probed class before it is ready: its start-up thread, which never waits. */
    private static volatile Thread startThread;

    private AgentStatus() {
    }

    /** Since when (epoch millis) the agent observes; 0 before. */
    public static long observingSinceMillis() {
        return observingSinceMillis;
    }

    public static boolean isObserving() {
        return observingSinceMillis != 0;
    }

    /** Called by the agent core, once: its probes are in and its recorders installed. */
    public static void observingSince(long epochMillis) {
        observingSinceMillis = epochMillis;
        SETTLED.countDown();
    }

    /** Called by the agent core when it cannot start: nothing waits for it any longer. */
    public static void failed() {
        SETTLED.countDown();
    }

    /**
     * Called by the agent core on its start-up thread before it defines a probed class ahead of being ready:
     * from then on, until it is, advice waits for it. Without this call nothing ever waits.
     */
    public static void definesClassesEarly(Thread startUpThread) {
        startThread = startUpThread;
    }

    /**
     * Waits until the agent is ready or has failed, when it is neither yet: for advice in a class the agent
     * defined before it was ready (from its class cache), which must not run without its recorders. At once
     * on the start-up thread and once settled; at most {@value #MAX_WAIT_SECONDS} s.
     */
    public static void awaitSettled() {
        Thread starting = startThread;
        if (starting == null || SETTLED.getCount() == 0 || Thread.currentThread() == starting) {
            return;
        }
        try {
            SETTLED.await(MAX_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
