package io.argus.core.instrument;

import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.pool.TypePool;

import java.util.Map;
import java.util.WeakHashMap;

/**
 * Keeps ByteBuddy's parsed type descriptions per class loader across transformations. Without it
 * every transformation re-reads the super types and advice classes it needs, and each read is a
 * resource look-up through all of the loader's jars (207 of them in a Druid process). Loaders are
 * held weakly, so an undeployed application's loader is not kept alive.
 */
final class LoaderTypePoolCache extends AgentBuilder.PoolStrategy.WithTypePoolCache {

    /** Stands for the boot loader, which has no object of its own. */
    private static final ClassLoader BOOT = new ClassLoader(null) {
    };

    private final Map<ClassLoader, TypePool.CacheProvider> caches = new WeakHashMap<ClassLoader, TypePool.CacheProvider>();

    LoaderTypePoolCache() {
        super(TypePool.Default.ReaderMode.FAST);
    }

    @Override
    protected TypePool.CacheProvider locate(ClassLoader classLoader) {
        ClassLoader key = classLoader == null ? BOOT : classLoader;
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
