package io.argus.distribution.apps;

import io.argus.testing.app.AgentBridge;

/**
 * Tries to load each class named on the command line and prints whether it could. With {@code -Dawait.agent=true}
 * it first waits until the agent observes ({@link AgentBridge#await}, so run it with the testing app on its class
 * path): the agent defines its bridge on its own start-up thread while main runs.
 */
public final class ClassVisibilityApp {

    public static void main(String[] args) throws Exception {
        if (Boolean.getBoolean("await.agent")) {
            AgentBridge.await();
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
}
