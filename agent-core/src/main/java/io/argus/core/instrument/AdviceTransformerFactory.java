package io.argus.core.instrument;

import io.argus.bridge.AdviceErrors;
import io.argus.core.AgentCounters;
import io.argus.core.AgentLog;
import io.argus.core.plugin.TypeProbe;
import io.argus.core.state.FieldRegistry;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.agent.builder.AgentBuilder;
import java.lang.instrument.ClassFileTransformer;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.dynamic.scaffold.MethodGraph;
import net.bytebuddy.dynamic.scaffold.TypeValidation;
import net.bytebuddy.implementation.bytecode.member.MethodInvocation;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.matcher.ElementMatchers;
import net.bytebuddy.pool.TypePool;
import net.bytebuddy.utility.JavaModule;

import java.security.ProtectionDomain;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/** Builds the ByteBuddy transformer that inlines every probe's advice. */
final class AdviceTransformerFactory {

    private AdviceTransformerFactory() {
    }

    static ClassFileTransformer create(List<TypeProbe> probes, Map<String, FieldRegistry.OwnerFields> owners,
                                       ClassLoader agentLoader, HelperInjector helpers, AgentCounters counters,
                                       AtomicLong transformedClasses, LoadPhase phase) {
        // The shaded ByteBuddy reads this relocated property: it needs no sun.misc.Unsafe here, and
        // touching it makes JDK 24+ print deprecation warnings on the application's console.
        System.setProperty("net.bytebuddy.safe", "true");
        Advice.ExceptionHandler countErrors;
        try {
            countErrors = new Advice.ExceptionHandler.Simple(MethodInvocation.invoke(
                    new MethodDescription.ForLoadedMethod(AdviceErrors.class.getMethod("report", Throwable.class))));
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException("bridge is incomplete", e);
        }
        ClassFileLocator adviceLocator = ClassFileLocator.ForClassLoader.of(agentLoader);
        TypePool advicePool = TypePool.Default.of(adviceLocator);

        // Advice only rewrites the methods a class declares: the declared-methods graph spares ByteBuddy
        // the whole hierarchy's method graph per transformed class (a JDBC driver's statement has hundreds)
        AgentBuilder builder = new AgentBuilder.Default(new ByteBuddy().with(TypeValidation.DISABLED)
                .with(MethodGraph.Compiler.ForDeclaredMethods.INSTANCE))
                .disableClassFormatChanges()
                .with(AgentBuilder.TypeStrategy.Default.DECORATE)
                .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
                .with(new LoaderTypePoolCache())
                .with(AgentBuilder.LocationStrategy.ForClassLoader.WEAK)
                .with(new Listener(counters, transformedClasses))
                .ignore(ElementMatchers.none());

        for (FieldRegistry.OwnerFields owner : owners.values()) {
            builder = builder.type(ElementMatchers.<TypeDescription>named(owner.className()))
                    .transform(new InjectFields(new FieldInjection(owner), phase));
        }
        for (TypeProbe probe : probes) {
            if (probe.advice().isEmpty()) {
                continue;
            }
            ElementMatcher.Junction<MethodDescription> anyAdvised = ElementMatchers.none();
            for (TypeProbe.MethodAdvice advice : probe.advice()) {
                anyAdvised = anyAdvised.or(advice.methods);
            }
            ElementMatcher.Junction<TypeDescription> types = probe.isHierarchy()
                    ? ElementMatchers.<TypeDescription>hasSuperType(ElementMatchers.named(probe.typeName()))
                    .and(ElementMatchers.not(ElementMatchers.<TypeDescription>isInterface()))
                    : ElementMatchers.<TypeDescription>named(probe.typeName());
            // a class that declares none of the advised methods (a driver's subclass that only adds a
            // constructor) is left alone: transforming it would cost as much and change nothing
            types = types.and(ElementMatchers.<TypeDescription>declaresMethod(anyAdvised));
            if (probe.nameHints() != null) {
                // the name first: other probes' classes are dismissed without resolving their hierarchy
                types = new SimpleNameHints(probe.nameHints()).and(types);
            }
            builder = builder.type(types).transform(new CheckedAdvice(probe, advicePool, agentLoader, countErrors,
                    helpers));
        }
        return builder.makeRaw();
    }

    /** Adds an owner class's fields while it is loaded; a loaded class cannot get new fields, so a retransformation adds none. */
    private static final class InjectFields implements AgentBuilder.Transformer {
        private final FieldInjection injection;
        private final LoadPhase phase;

        InjectFields(FieldInjection injection, LoadPhase phase) {
            this.injection = injection;
            this.phase = phase;
        }

        @Override
        public DynamicType.Builder<?> transform(DynamicType.Builder<?> builder, TypeDescription type, ClassLoader loader,
                                                JavaModule module, ProtectionDomain domain) {
            return phase.isFirstLoad() ? builder.visit(injection) : builder;
        }
    }

    /** Matches types whose simple name contains one of the hints. */
    private static final class SimpleNameHints extends ElementMatcher.Junction.AbstractBase<TypeDescription> {
        private final String[] hints;

        SimpleNameHints(String[] hints) {
            this.hints = hints;
        }

        @Override
        public boolean matches(TypeDescription target) {
            return TypeProbe.simpleNameContainsAny(target.getName(), hints);
        }
    }

    /** Counts transformed classes; logs and skips a class a plugin fails to instrument. */
    private static final class Listener extends AgentBuilder.Listener.Adapter {
        private final AgentCounters counters;
        private final AtomicLong transformedClasses;

        Listener(AgentCounters counters, AtomicLong transformedClasses) {
            this.counters = counters;
            this.transformedClasses = transformedClasses;
        }

        @Override
        public void onTransformation(TypeDescription type, ClassLoader loader, JavaModule module, boolean loaded,
                                     DynamicType dynamicType) {
            transformedClasses.incrementAndGet();
            if (AgentLog.isDebug()) {
                AgentLog.debug("instrumented " + type.getName());
            }
        }

        @Override
        public void onError(String typeName, ClassLoader loader, JavaModule module, boolean loaded, Throwable error) {
            AgentLog.warn("could not instrument " + typeName + "; it runs unchanged", error);
        }
    }
}
