package io.argus.core.instrument;

import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.pool.TypePool;

import java.util.Map;
import java.util.WeakHashMap;

/**
 * ByteBuddy's view of the classes of one class loader together with the agent's own (the advice):
 * where their class files are, and the type descriptions parsed so far. Descriptions are kept per
 * loader across transformations; without that every transformation re-reads the super types and
 * advice classes it needs, each read a resource look-up through all of the loader's jars (207 of
 * them in a Druid process). Loaders are held weakly, so an undeployed application's loader is not
 * kept alive.
 */
final class TypePools {

    /** Stands for the boot loader, which has no object of its own. */
    private static final ClassLoader BOOT = new ClassLoader(null) {
    };

    private final ClassFileLocator agentClasses;
    private final Map<ClassLoader, TypePool.CacheProvider> caches = new WeakHashMap<ClassLoader, TypePool.CacheProvider>();

    TypePools(ClassLoader agentLoader) {
        this.agentClasses = ClassFileLocator.ForClassLoader.of(agentLoader);
    }

    /** The agent's class files first (advice), then {@code loader}'s. */
    ClassFileLocator locator(ClassLoader loader) {
        return new ClassFileLocator.Compound(agentClasses, loader == null
                ? ClassFileLocator.ForClassLoader.ofBootLoader()
                : ClassFileLocator.ForClassLoader.WeaklyReferenced.of(loader));
    }

    /** A pool over {@code locator} that shares the descriptions parsed for {@code loader} so far. */
    TypePool pool(ClassLoader loader, ClassFileLocator locator) {
        return new TypePool.Default.WithLazyResolution(cache(loader), locator, TypePool.Default.ReaderMode.FAST);
    }

    private TypePool.CacheProvider cache(ClassLoader loader) {
        ClassLoader key = loader == null ? BOOT : loader;
        synchronized (caches) {
            TypePool.CacheProvider cache = caches.get(key);
            if (cache == null) {
                cache = TypePool.CacheProvider.Simple.withObjectType();
                caches.put(key, cache);
            }
            return cache;
        }
    }
}
