package io.argus.core.instrument;

import io.argus.bridge.AdviceErrors;
import io.argus.core.AgentLog;
import io.argus.core.plugin.TypeProbe;
import net.bytebuddy.ClassFileVersion;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.asm.AsmVisitorWrapper;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.dynamic.scaffold.ClassWriterStrategy;
import net.bytebuddy.dynamic.scaffold.TypeInitializer;
import net.bytebuddy.implementation.Implementation;
import net.bytebuddy.implementation.auxiliary.AuxiliaryType;
import net.bytebuddy.implementation.bytecode.member.MethodInvocation;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.pool.TypePool;
import net.bytebuddy.utility.OpenedClassReader;

import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.List;

/**
 * Rewrites one class file: inlines the advice of the probes that apply to it (ByteBuddy's
 * {@link Advice} as an ASM visitor). Only what inlined advice needs: a type pool per class loader,
 * ASM's reader and writer, and a disabled implementation context (no class format changes; an owner
 * class's fields come from {@link OwnerFieldsTransformer}, which runs first). ByteBuddy's {@code AgentBuilder}, its type
 * matchers, dynamic types and class loading strategies stay unloaded: the engine's own index decides
 * which probes apply before ByteBuddy parses anything.
 */
final class AdviceWeaver {

    private static final AuxiliaryType.NamingStrategy NO_AUXILIARY_TYPES = new AuxiliaryType.NamingStrategy.Suffixing("argus");

    private final Map<TypeProbe, CheckedAdvice> advice = new IdentityHashMap<TypeProbe, CheckedAdvice>();
    private final TypePools pools;
    private final TypeProbe warmUp = AdviceWarmUp.probe();

    AdviceWeaver(List<TypeProbe> probes, ClassLoader agentLoader, HelperInjector helpers) {
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
        this.pools = new TypePools(agentLoader);
        TypePool advicePool = TypePool.Default.of(ClassFileLocator.ForClassLoader.of(agentLoader));
        for (TypeProbe probe : probes) {
            if (!probe.advice().isEmpty()) {
                advice.put(probe, new CheckedAdvice(probe, advicePool, countErrors, helpers));
            }
        }
        advice.put(warmUp, new CheckedAdvice(warmUp, advicePool, countErrors, helpers));
    }

    /** Weaves a class of the agent's own, result dropped: see {@link AdviceWarmUp}. */
    void warmUp(ClassLoader agentLoader) {
        String name = AdviceWarmUp.Target.class.getName().replace('.', '/');
        byte[] classFile = ClassFiles.read(agentLoader, name + ".class");
        if (classFile != null) {
            weave(agentLoader, name, null, null, classFile, Collections.singletonList(warmUp), new ArrayList<String>());
        }
    }

    /**
     * The rewritten class file, or null to leave the class as it is (no probe selects any of its methods).
     *
     * @param redefined the class when it is being retransformed, null as it loads
     * @param helpersDefined gets the helper classes defined for it in {@code loader}
     */
    byte[] weave(ClassLoader loader, String internalName, Class<?> redefined, ProtectionDomain domain,
                 byte[] classFile, List<TypeProbe> probes, List<String> helpersDefined) {
        if (probes.isEmpty()) {
            return null;
        }
        String name = internalName.replace('/', '.');
        ClassFileLocator locator = new ClassFileLocator.Compound(ClassFileLocator.Simple.of(name, classFile),
                pools.locator(loader));
        TypePool pool = pools.pool(loader, locator);
        TypeDescription type = pool.describe(name).resolve();
        AsmVisitorWrapper.ForDeclaredMethods methods = null;
        for (TypeProbe probe : probes) {
            CheckedAdvice checked = advice.get(probe);
            if (checked != null) {
                methods = checked.addTo(methods, type, loader, domain, pools, helpersDefined);
            }
        }
        if (methods == null) {
            return null;
        }
        AsmVisitorWrapper wrapper = methods;
        int writerFlags = wrapper.mergeWriter(AsmVisitorWrapper.NO_FLAGS);
        int readerFlags = wrapper.mergeReader(AsmVisitorWrapper.NO_FLAGS);
        ClassReader reader = OpenedClassReader.of(classFile);
        ClassWriter writer = ClassWriterStrategy.Default.CONSTANT_POOL_RETAINING.resolve(writerFlags, pool, reader);
        reader.accept(new Decorator(writer, type, pool, wrapper, writerFlags, readerFlags), readerFlags);
        if (AgentLog.isDebug()) {
            AgentLog.debug("instrumented " + name);
        }
        return writer.toByteArray();
    }

    /** Wraps the writer once the class file's version is known, as ByteBuddy's own decoration does. */
    private static final class Decorator extends ClassVisitor {
        private final TypeDescription type;
        private final TypePool pool;
        private final AsmVisitorWrapper wrapper;
        private final int writerFlags;
        private final int readerFlags;

        Decorator(ClassVisitor writer, TypeDescription type, TypePool pool, AsmVisitorWrapper wrapper,
                  int writerFlags, int readerFlags) {
            super(OpenedClassReader.ASM_API, writer);
            this.type = type;
            this.pool = pool;
            this.wrapper = wrapper;
            this.writerFlags = writerFlags;
            this.readerFlags = readerFlags;
        }

        @Override
        public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
            ClassFileVersion classFileVersion = ClassFileVersion.ofMinorMajor(version);
            Implementation.Context.ExtractableView context = Implementation.Context.Disabled.Factory.INSTANCE.make(type,
                    NO_AUXILIARY_TYPES, TypeInitializer.None.INSTANCE, classFileVersion, classFileVersion);
            cv = wrapper.wrap(type, cv, context, pool, type.getDeclaredFields(), type.getDeclaredMethods(),
                    writerFlags, readerFlags);
            super.visit(version, access, name, signature, superName, interfaces);
        }
    }
}
