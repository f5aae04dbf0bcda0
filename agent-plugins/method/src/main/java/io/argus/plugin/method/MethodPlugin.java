package io.argus.plugin.method;

import io.argus.core.plugin.ArgusPlugin;
import io.argus.core.plugin.PluginLog;
import io.argus.core.plugin.Probes;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.matcher.ElementMatchers;

import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.isBridge;
import static net.bytebuddy.matcher.ElementMatchers.isMethod;
import static net.bytebuddy.matcher.ElementMatchers.isNative;
import static net.bytebuddy.matcher.ElementMatchers.isSynthetic;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;

/**
 * Method tracing: every call of a method named in {@code argus.trace.methods} becomes an INTERNAL
 * span named {@code fully.qualified.Class.method}, a child of the current span, or the root of a
 * new trace when the sampler says so. One exact-name type probe per configured class.
 */
public final class MethodPlugin implements ArgusPlugin {

    static final String ADVICE = "io.argus.plugin.method.TracedMethodAdvice";

    @Override
    public String name() {
        return "method";
    }

    @Override
    public void instrument(Probes probes) {
        probes.typesNamedIn(MethodTargets.KEY);
        MethodTargets targets = MethodTargets.parse(probes.settings().getString(MethodTargets.KEY, ""));
        for (String error : targets.errors()) {
            PluginLog.error("plugin method: " + error);
        }
        for (MethodTargets.ClassTargets target : targets.classes()) {
            probes.type(target.className()).advise(matcher(target), ADVICE);
            if (PluginLog.isDebug()) {
                PluginLog.debug("plugin method: tracing " + target);
            }
        }
    }

    /**
     * Methods with code only (no constructors, type initialisers, abstract or native methods), and
     * none the compiler generated (lambda bodies, bridges, accessors).
     */
    static ElementMatcher.Junction<MethodDescription> matcher(MethodTargets.ClassTargets target) {
        ElementMatcher.Junction<MethodDescription> traceable = isMethod()
                .and(not(isAbstract())).and(not(isNative()))
                .and(not(isSynthetic())).and(not(isBridge()));
        if (target.allMethods()) {
            return traceable;
        }
        ElementMatcher.Junction<MethodDescription> names = ElementMatchers.none();
        for (String name : target.methodNames()) {
            names = names.or(named(name));
        }
        return traceable.and(names);
    }
}
