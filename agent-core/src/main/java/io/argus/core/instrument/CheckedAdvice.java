package io.argus.core.instrument;

import io.argus.core.plugin.TypeProbe;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.asm.AsmVisitorWrapper;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.pool.TypePool;

import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * One probe's advice, checked ({@link AdviceChecks}, helper classes present) when the first class
 * the probe matches is transformed, not when the engine starts: most plugins' libraries are absent
 * from a given application, and reading all their advice class files cost the start-up a
 * few hundred milliseconds of CPU. Then, for each class the probe applies to, defines the probe's
 * helper classes in the class's loader and adds its advice for the methods it selects; a probe that
 * fails its check leaves every class as it is.
 *
 * <p>ByteBuddy's {@link Advice} for an advice class is made once per class loader: it describes the
 * advice's parameter types (the library's), which only the target's loader can see.
 */
final class CheckedAdvice {

    /** Stands for the boot loader in the per-loader cache. */
    private static final Object BOOT = new Object();

    private final TypeProbe probe;
    private final TypePool advicePool;
    private final Advice.ExceptionHandler exceptionHandler;
    private final HelperInjector helpers;
    /** Null until checked; then the probe's usable advice (empty: none, the probe is skipped). */
    private volatile List<TypeProbe.MethodAdvice> usable;
    /** Per class loader (weakly), the {@link Advice} of each usable advice, in step with {@link #usable}. */
    private final Map<Object, Advice[]> advicePerLoader = new WeakHashMap<Object, Advice[]>();

    CheckedAdvice(TypeProbe probe, TypePool advicePool, Advice.ExceptionHandler exceptionHandler,
                  HelperInjector helpers) {
        this.probe = probe;
        this.advicePool = advicePool;
        this.exceptionHandler = exceptionHandler;
        this.helpers = helpers;
    }

    TypeProbe probe() {
        return probe;
    }

    /**
     * Adds this probe's advice, for the methods of {@code type} it selects, to {@code wrapper} (null: none
     * yet) and returns it; returns {@code wrapper} unchanged when the probe selects none of them or failed
     * its check. Defines the helpers first, and adds them to {@code helpersDefined}: if they cannot be
     * defined this throws, and the caller leaves the class as it is.
     */
    AsmVisitorWrapper.ForDeclaredMethods addTo(AsmVisitorWrapper.ForDeclaredMethods wrapper, TypeDescription type,
                                               ClassLoader loader, ProtectionDomain domain, TypePools pools,
                                               List<String> helpersDefined) {
        List<TypeProbe.MethodAdvice> checked = resolve();
        boolean[] selects = new boolean[checked.size()];
        boolean any = false;
        for (MethodDescription.InDefinedShape method : type.getDeclaredMethods()) {
            for (int i = 0; i < selects.length; i++) {
                if (!selects[i] && checked.get(i).methods.matches(method)) {
                    selects[i] = true;
                    any = true;
                }
            }
        }
        if (!any) {
            return wrapper;
        }
        if (!probe.helpers().isEmpty()) {
            try {
                helpers.inject(loader, domain, new ArrayList<String>(probe.helpers()));
                helpersDefined.addAll(probe.helpers());
            } catch (Exception e) {
                throw new IllegalStateException("helper classes for " + type.getName() + " could not be defined", e);
            }
        }
        Advice[] advice = advice(loader, checked, pools);
        AsmVisitorWrapper.ForDeclaredMethods result = wrapper == null ? new AsmVisitorWrapper.ForDeclaredMethods() : wrapper;
        for (int i = 0; i < selects.length; i++) {
            if (selects[i]) {
                result = result.invokable(checked.get(i).methods, advice[i]);
            }
        }
        return result;
    }

    private Advice[] advice(ClassLoader loader, List<TypeProbe.MethodAdvice> checked, TypePools pools) {
        Object key = loader == null ? BOOT : loader;
        synchronized (advicePerLoader) {
            Advice[] made = advicePerLoader.get(key);
            if (made == null) {
                ClassFileLocator locator = pools.locator(loader);
                TypePool pool = pools.pool(loader, locator);
                made = new Advice[checked.size()];
                for (int i = 0; i < made.length; i++) {
                    made[i] = Advice.to(pool.describe(checked.get(i).adviceClassName).resolve(), locator)
                            .withExceptionHandler(exceptionHandler);
                }
                advicePerLoader.put(key, made);
            }
            return made;
        }
    }

    private List<TypeProbe.MethodAdvice> resolve() {
        List<TypeProbe.MethodAdvice> checked = usable;
        if (checked == null) {
            synchronized (this) {
                checked = usable;
                if (checked == null) {
                    checked = check();
                    usable = checked;
                }
            }
        }
        return checked;
    }

    private List<TypeProbe.MethodAdvice> check() {
        List<TypeProbe.MethodAdvice> checked = new ArrayList<TypeProbe.MethodAdvice>();
        for (TypeProbe.MethodAdvice advice : probe.advice()) {
            if (AdviceChecks.isUsable(advicePool, advice.adviceClassName, probe.pluginName())) {
                checked.add(advice);
            }
        }
        if (checked.isEmpty() || !helpers.exist(probe.helpers(), probe.pluginName())) {
            return new ArrayList<TypeProbe.MethodAdvice>();
        }
        return checked;
    }
}
