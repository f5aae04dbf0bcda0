package io.argus.plugin.servlet.app;

/** Helpers the forked test applications share. */
public final class AppSupport {

    private AppSupport() {
    }

    /** Prints whether the application's class loader can see agent internals (it must not). */
    public static void printClassVisibility(Class<?> app) {
        System.out.println("VISIBILITY bytebuddy=" + visible(app, "io.argus.shaded.net.bytebuddy.ByteBuddy")
                + " core=" + visible(app, "io.argus.core.AgentRuntime")
                + " bridge=" + visible(app, "io.argus.bridge.Argus"));
    }

    private static boolean visible(Class<?> app, String name) {
        try {
            Class.forName(name, false, app.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
