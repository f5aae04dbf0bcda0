package io.argus.testing.app;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.context.TraceContext;
import io.argus.bridge.server.ServerCalls;

/**
 * What the data store test applications share: each scenario runs under a hand-made server span
 * ({@link ServerCalls#start}) and prints the lines agent-testing's ScenarioLines reads:
 * {@code ROOT tag=<tag> traceparent=<parent span|null>}, then {@code CONTEXT tag=<tag> current=<bool>}
 * (whether a context is left on the thread after the request), and, for what a scenario catches,
 * {@code ERROR tag=<tag> class=<exception class>}.
 */
public final class Scenarios {

    /** The work of one scenario. */
    public interface Work {
        void run() throws Exception;
    }

    private Scenarios() {
    }

    public static void traced(String tag, Work work) throws Exception {
        long start = System.nanoTime();
        ActiveSpan root = ServerCalls.start("GET", "/" + tag, null, null);
        print("ROOT tag=" + tag + " traceparent=" + (root == null ? "null" : root.traceparent()));
        try {
            work.run();
        } finally {
            ServerCalls.end(root, start, "GET", "/" + tag, 200, null);
        }
        afterwards(tag);
    }

    /** {@code CONTEXT tag=<tag> current=...}: whether this thread still holds a trace context. */
    public static void afterwards(String tag) {
        print("CONTEXT tag=" + tag + " current=" + (TraceContext.current() != null));
    }

    public static void error(String tag, Exception e) {
        print("ERROR tag=" + tag + " class=" + e.getClass().getName());
    }

    public static void print(String line) {
        synchronized (System.out) {
            System.out.println(line);
            System.out.flush();
        }
    }
}
