package io.argus.distribution.apps;

/**
 * Tries to load each class named on the command line and prints whether it could. With {@code -Dawait.agent=true}
 * it first waits (at most 60 s) until the agent observes: the agent defines its bridge on its own start-up thread
 * while main runs.
 */
public final class ClassVisibilityApp {

    public static void main(String[] args) throws Exception {
        if (Boolean.getBoolean("await.agent")) {
            awaitAgent();
        }
        ClassLoader loader = ClassVisibilityApp.class.getClassLoader();
        for (String name : args) {
            String result;
            try {
                Class.forName(name, false, loader);
                result = "VISIBLE";
            } catch (ClassNotFoundException | LinkageError e) {
                result = "HIDDEN";
            }
            System.out.println("CLASS " + name + " " + result);
        }
        System.out.println("DONE");
        Thread.sleep(Long.parseLong(System.getProperty("stay.ms", "0")));
    }

    private static void awaitAgent() throws InterruptedException {
        long deadline = System.currentTimeMillis() + 60_000;
        while (System.currentTimeMillis() < deadline) {
            try {
                Object observing = Class.forName("io.argus.bridge.AgentStatus", true, null)
                        .getMethod("isObserving").invoke(null);
                if (Boolean.TRUE.equals(observing)) {
                    return;
                }
            } catch (ReflectiveOperationException notYet) {
                // the bridge is not defined yet
            }
            Thread.sleep(5);
        }
    }
}
