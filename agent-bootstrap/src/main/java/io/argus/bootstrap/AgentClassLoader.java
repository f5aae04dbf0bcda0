package io.argus.bootstrap;

import java.net.URL;
import java.net.URLClassLoader;

/**
 * Loads the agent core and the plugins. Its parent is the platform (Java 9+) or extension
 * (Java 8) loader, so the agent never sees the application's classes and the application never
 * sees the agent's shaded ByteBuddy or JCTools. The one exception is premain's hand-off package,
 * {@code io.argus.bootstrap.handoff}, which it takes from premain's own loader: premain and the core then
 * share the same classes for what one hands the other.
 */
final class AgentClassLoader extends URLClassLoader {

    private static final String HANDOFF_PACKAGE = "io.argus.bootstrap.handoff.";

    static {
        ClassLoader.registerAsParallelCapable();
    }

    AgentClassLoader(URL[] urls) {
        super(urls, ClassLoader.getSystemClassLoader().getParent());
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (name.startsWith(HANDOFF_PACKAGE)) {
            return AgentClassLoader.class.getClassLoader().loadClass(name);
        }
        return super.loadClass(name, resolve);
    }

    @Override
    public String toString() {
        return "ArgusAgentClassLoader";
    }
}
