package io.argus.core.instrument;

import java.util.ArrayDeque;
import java.util.Collections;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Answers "does this class, as it is being defined, extend or implement that type?" from class file
 * headers ({@link TypeHeader}): the class's own bytes, then its super types' class files as its loader
 * finds them. The super types are usually not loaded yet (a class is transformed before its super
 * class loads), and reading their headers costs far less than letting ByteBuddy describe them. Headers
 * are cached per class loader, loaders held weakly; a super type the loader cannot find ends the walk
 * on that branch.
 */
final class SuperTypeWalk {

    private static final String OBJECT = "java/lang/Object";

    private final Map<ClassLoader, Map<String, Object>> headers =
            Collections.synchronizedMap(new WeakHashMap<ClassLoader, Map<String, Object>>());

    /**
     * Whether the class {@code internalName} (bytes {@code classFile}, defined by {@code loader}) is a
     * class, not an interface, that is or extends or implements {@code superType} (internal name).
     */
    boolean isConcreteSubtype(ClassLoader loader, String internalName, byte[] classFile, String superType) {
        TypeHeader own = TypeHeader.read(classFile);
        if (own == null || own.isInterface()) {
            return false;
        }
        if (internalName.equals(superType)) {
            return true;
        }
        Set<String> seen = new HashSet<String>();
        ArrayDeque<String> pending = new ArrayDeque<String>();
        add(own, pending);
        while (!pending.isEmpty()) {
            String name = pending.poll();
            if (name.equals(superType)) {
                return true;
            }
            if (name.equals(OBJECT) || !seen.add(name)) {
                continue;
            }
            TypeHeader header = header(loader, name);
            if (header != null) {
                add(header, pending);
            }
        }
        return false;
    }

    private static void add(TypeHeader header, ArrayDeque<String> pending) {
        if (header.superName != null) {
            pending.add(header.superName);
        }
        Collections.addAll(pending, header.interfaces);
    }

    /**
     * A {@code java.*} type, which only the boot and platform loaders define (so {@code loader} hands the
     * look-up to them, whatever it is), nearly always loaded already, else from the class data archive:
     * reading its class file would first start the JDK's {@code jrt:} file system.
     */
    private static TypeHeader platformType(ClassLoader loader, String internalName) {
        try {
            return TypeHeader.of(Class.forName(internalName.replace('/', '.'), false, loader));
        } catch (ClassNotFoundException e) {
            return null;
        } catch (LinkageError e) {
            return null;
        }
    }

    private TypeHeader header(ClassLoader loader, String internalName) {
        Map<String, Object> known = headers.get(loader);
        if (known == null) {
            known = new ConcurrentHashMap<String, Object>();
            Map<String, Object> raced;
            synchronized (headers) {
                raced = headers.get(loader);
                if (raced == null) {
                    headers.put(loader, known);
                }
            }
            if (raced != null) {
                known = raced;
            }
        }
        Object cached = known.get(internalName);
        if (cached == null) {
            TypeHeader read = internalName.startsWith("java/") ? platformType(loader, internalName)
                    : TypeHeader.read(ClassFiles.read(loader, internalName + ".class"));
            cached = read == null ? Boolean.FALSE : read;
            known.put(internalName, cached);
        }
        return cached instanceof TypeHeader ? (TypeHeader) cached : null;
    }
}
