package io.argus.testing.app;

/**
 * For test applications that call the agent's bridge themselves (to start a trace by hand, or to read the
 * current context): the agent defines the bridge on its own start-up thread, and an application of a user's
 * never names it, only the library classes the agent instruments do, which wait for the agent anyway. Such a
 * test application calls {@link #await} first (it returns once the bridge's {@code AgentStatus} says the agent
 * observes); nothing else in it waits for the agent.
 */
public final class AgentBridge {

    private static final String STATUS = "io.argus.bridge.AgentStatus";
    private static final long MAX_WAIT_MILLIS = 60_000;

    private AgentBridge() {
    }

    /** Returns once the agent observes (its bridge defined, its recorders in), or at once without an agent. */
    public static void await() {
        if (!withAgent()) {
            return;
        }
        long deadline = System.currentTimeMillis() + MAX_WAIT_MILLIS;
        while (!observing()) {
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException("the agent's bridge was not defined within " + MAX_WAIT_MILLIS + " ms");
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static boolean observing() {
        try {
            return (Boolean) Class.forName(STATUS, true, null).getMethod("isObserving").invoke(null);
        } catch (ClassNotFoundException e) {
            return false;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The agent's jar is on the system class path only when the JVM was given it ({@code -javaagent}). */
    private static boolean withAgent() {
        if ("false".equalsIgnoreCase(System.getProperty("argus.enabled"))) {
            return false;
        }
        try {
            Class.forName("io.argus.bootstrap.AgentMain", false, ClassLoader.getSystemClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }
}
