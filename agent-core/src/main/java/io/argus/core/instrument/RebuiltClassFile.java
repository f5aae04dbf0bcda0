package io.argus.core.instrument;

import java.util.Arrays;
import java.util.Comparator;

/**
 * The class file a retransformation is given, in a form that is the same on every run. Unless a transformer
 * changed a class as it loaded, the JVM has not kept its class file and rebuilds one from the loaded class,
 * with the methods in the order it keeps them in memory (by the address of their names), which differs from
 * run to run: the same {@code ThreadPoolExecutor} came in three orders in ten starts. The class cache keys a
 * retransformed class by these bytes instead, so that a restart finds it whatever the order.
 */
final class RebuiltClassFile {

    private static final Comparator<byte[]> UNSIGNED = new Comparator<byte[]>() {
        @Override
        public int compare(byte[] a, byte[] b) {
            int common = Math.min(a.length, b.length);
            for (int i = 0; i < common; i++) {
                int d = (a[i] & 0xFF) - (b[i] & 0xFF);
                if (d != 0) {
                    return d;
                }
            }
            return a.length - b.length;
        }
    };

    private RebuiltClassFile() {
    }

    /**
     * {@code classFile} with its methods sorted by their bytes; {@code classFile} itself when it cannot be
     * read (then the cache keys it as it is).
     */
    static byte[] withMethodsSorted(byte[] classFile) {
        try {
            byte[] sorted = sort(classFile);
            return sorted == null ? classFile : sorted;
        } catch (RuntimeException e) { // a truncated file: an index out of bounds
            return classFile;
        }
    }

    private static byte[] sort(byte[] b) {
        byte[][] methods = methods(b);
        if (methods == null) {
            return null;
        }
        Arrays.sort(methods, UNSIGNED);
        return withMethods(b, methods);
    }

    /** Each method's bytes, in the file's order; null when the bytes are not a class file this reads. */
    static byte[][] methods(byte[] b) {
        int start = methodsStart(b);
        if (start < 0) {
            return null;
        }
        byte[][] methods = new byte[ConstantPool.u2(b, start - 2)][];
        int p = start;
        for (int i = 0; i < methods.length; i++) {
            int end = memberEnd(b, p);
            if (end > b.length) {
                return null;
            }
            methods[i] = Arrays.copyOfRange(b, p, end);
            p = end;
        }
        return methods;
    }

    /** {@code b} with its methods replaced by {@code methods} (the same ones, in another order). */
    static byte[] withMethods(byte[] b, byte[][] methods) {
        byte[] result = b.clone();
        int q = methodsStart(b);
        for (byte[] method : methods) {
            System.arraycopy(method, 0, result, q, method.length);
            q += method.length;
        }
        return result;
    }

    /** Where the first method starts (past the methods' count); -1 when the bytes are not a class file. */
    private static int methodsStart(byte[] b) {
        int[] pool = ConstantPool.offsets(b);
        if (pool == null) {
            return -1;
        }
        int p = pool[pool.length - 1] + 6; // access, this, super
        p += 2 + 2 * ConstantPool.u2(b, p); // interfaces
        int fields = ConstantPool.u2(b, p);
        p += 2;
        for (int i = 0; i < fields; i++) {
            p = memberEnd(b, p);
        }
        return p + 2;
    }

    /** The offset past the field or method at {@code p}: access, name, descriptor, then its attributes. */
    private static int memberEnd(byte[] b, int p) {
        int attributes = ConstantPool.u2(b, p + 6);
        p += 8;
        for (int i = 0; i < attributes; i++) {
            p += 6 + ConstantPool.u4(b, p + 2);
        }
        return p;
    }
}
