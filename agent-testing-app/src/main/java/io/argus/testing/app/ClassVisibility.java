package io.argus.testing.app;

/** What a test application's class loader can see of the agent: the bridge only. */
public final class ClassVisibility {

    private ClassVisibility() {
    }

    /**
     * Prints {@code VISIBILITY bytebuddy=<b> core=<b> bridge=<b>}: whether the loader of {@code app} can
     * load the agent's ByteBuddy and core (it must not) and the bridge (it must, from the boot loader). The
     * agent defines the bridge on its start-up thread while the application starts, so the line comes from a
     * thread of its own once the agent observes, and the application does not wait for it.
     */
    public static void print(Class<?> app) {
        Thread printer = new Thread(() -> {
            AgentBridge.await();
            System.out.println("VISIBILITY bytebuddy=" + visible(app, "io.argus.shaded.net.bytebuddy.ByteBuddy")
                    + " core=" + visible(app, "io.argus.core.AgentRuntime")
                    + " bridge=" + visible(app, "io.argus.bridge.server.ServerCalls"));
        }, "visibility-check");
        printer.setDaemon(true);
        printer.start();
    }

    private static boolean visible(Class<?> app, String name) {
        try {
            Class.forName(name, false, app.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** Whether the agent gave {@code object}'s class real fields as it loaded (it implements the bridge's FieldOwner). */
    public static boolean isFieldOwner(Object object) {
        try {
            return Class.forName("io.argus.bridge.state.FieldOwner", false, null).isInstance(object);
        } catch (ClassNotFoundException noAgent) {
            return false;
        }
    }
}
