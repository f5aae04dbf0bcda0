package io.argus.core.instrument;

import io.argus.core.plugin.TypeProbe;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.pool.TypePool;
import net.bytebuddy.utility.JavaModule;

import java.security.ProtectionDomain;
import java.util.ArrayList;

/**
 * One probe's advice, checked ({@link AdviceChecks}, helper classes present) when the first class
 * the probe matches is transformed, not when the engine starts: most plugins' libraries are absent
 * from a given application, and reading all their advice class files cost the start-up a
 * few hundred milliseconds of CPU. Then defines the probe's helper classes in the loader of the
 * class, and inlines the advice; a probe that fails its check leaves every class as it is.
 */
final class CheckedAdvice implements AgentBuilder.Transformer {

    private final TypeProbe probe;
    private final TypePool advicePool;
    private final ClassLoader agentLoader;
    private final Advice.ExceptionHandler exceptionHandler;
    private final HelperInjector helpers;
    /** Null until checked; then the advice to apply, or {@link #UNUSABLE}. */
    private volatile AgentBuilder.Transformer resolved;

    private static final AgentBuilder.Transformer UNUSABLE = new AgentBuilder.Transformer() {
        @Override
        public DynamicType.Builder<?> transform(DynamicType.Builder<?> builder, TypeDescription type,
                                                ClassLoader loader, JavaModule module, ProtectionDomain domain) {
            return builder;
        }
    };

    CheckedAdvice(TypeProbe probe, TypePool advicePool, ClassLoader agentLoader,
                  Advice.ExceptionHandler exceptionHandler, HelperInjector helpers) {
        this.probe = probe;
        this.advicePool = advicePool;
        this.agentLoader = agentLoader;
        this.exceptionHandler = exceptionHandler;
        this.helpers = helpers;
    }

    @Override
    public DynamicType.Builder<?> transform(DynamicType.Builder<?> builder, TypeDescription type, ClassLoader loader,
                                            JavaModule module, ProtectionDomain domain) {
        AgentBuilder.Transformer advice = resolve();
        if (advice == UNUSABLE) {
            return builder;
        }
        if (!probe.helpers().isEmpty()) {
            // the helpers first: if they cannot be defined, the class is left as it is
            try {
                helpers.inject(loader, domain, new ArrayList<String>(probe.helpers()));
            } catch (Exception e) {
                throw new IllegalStateException("helper classes for " + type.getName() + " could not be defined", e);
            }
        }
        return advice.transform(builder, type, loader, module, domain);
    }

    private AgentBuilder.Transformer resolve() {
        AgentBuilder.Transformer advice = resolved;
        if (advice == null) {
            synchronized (this) {
                advice = resolved;
                if (advice == null) {
                    advice = check();
                    resolved = advice;
                }
            }
        }
        return advice;
    }

    private AgentBuilder.Transformer check() {
        AgentBuilder.Transformer.ForAdvice transformer = new AgentBuilder.Transformer.ForAdvice()
                .include(agentLoader)
                .withExceptionHandler(exceptionHandler);
        boolean anyUsable = false;
        for (TypeProbe.MethodAdvice advice : probe.advice()) {
            if (AdviceChecks.isUsable(advicePool, advice.adviceClassName, probe.pluginName())) {
                transformer = transformer.advice(advice.methods, advice.adviceClassName);
                anyUsable = true;
            }
        }
        if (!anyUsable || !helpers.exist(probe.helpers(), probe.pluginName())) {
            return UNUSABLE;
        }
        return transformer;
    }
}
