package io.argus.bridge;

/**
 * Whether the agent observes this JVM yet, for the application, its health checks and scripts: the agent
 * sets it when its probes are in, and from then on every request the application serves is observed.
 * Read with reflection (the class exists only with the agent, and only once it has defined the bridge):
 * {@code Class.forName("io.argus.bridge.AgentStatus", true, null).getMethod("observingSinceMillis")}.
 */
public final class AgentStatus {

    private static volatile long observingSinceMillis;

    private AgentStatus() {
    }

    /** Since when (epoch millis) the agent observes; 0 before. */
    public static long observingSinceMillis() {
        return observingSinceMillis;
    }

    public static boolean isObserving() {
        return observingSinceMillis != 0;
    }

    /** Called by the agent core, once. */
    public static void observingSince(long epochMillis) {
        observingSinceMillis = epochMillis;
    }
}
