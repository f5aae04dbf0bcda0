package io.argus.bootstrap;

import java.net.URL;
import java.net.URLClassLoader;

/**
 * Loads the agent core and the plugins. Its parent is the platform (Java 9+) or extension
 * (Java 8) loader, so the agent never sees the application's classes and the application never
 * sees the agent's shaded ByteBuddy or JCTools.
 */
final class AgentClassLoader extends URLClassLoader {

    static {
        ClassLoader.registerAsParallelCapable();
    }

    AgentClassLoader(URL[] urls) {
        super(urls, ClassLoader.getSystemClassLoader().getParent());
    }

    @Override
    public String toString() {
        return "ArgusAgentClassLoader";
    }
}
