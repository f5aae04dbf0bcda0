package io.argus.core.plugin;

/**
 * A plugin: a name, the probes it wants, and optionally background work. Listed in
 * {@code META-INF/services/io.argus.core.plugin.ArgusPlugin} of the plugin jar, and switched off
 * with {@code argus.plugin.<name>.enabled=false}.
 *
 * <pre>
 * public final class JettyPlugin implements ArgusPlugin {
 *     public String name() { return "jetty"; }
 *     public void instrument(Probes probes) {
 *         probes.type("org.eclipse.jetty.server.Server")
 *               .advise(named("handle").and(takesArguments(1)), "io.argus.plugin.jetty.ServerHandleAdvice");
 *     }
 * }
 * </pre>
 *
 * Advice classes are named, not referenced, because they mention library types that the agent's
 * class loader cannot see. Every advice method must declare {@code suppress = Throwable.class}.
 *
 * <p>Advice that needs a class implementing one of the library's types (a callback, a listener)
 * names it as a helper of the probe, {@link TypeProbe#helpers}: the engine defines it in the class
 * loader of each class the probe matches, from this plugin's jar, before the advice is inlined there.
 */
public interface ArgusPlugin {

    String name();

    /** Declares the classes and methods to instrument. Runs once at start-up. */
    default void instrument(Probes probes) {
    }

    /** Starts background work, e.g. gauge sources. Runs once, after {@link #instrument}. */
    default void start(PluginContext context) {
    }
}
