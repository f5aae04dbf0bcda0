package io.argus.core.instrument;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;

import static io.argus.core.instrument.ConstantPool.u2;

/**
 * The part of a class file that says where a class sits in the hierarchy: its access flags, its super
 * class and its interfaces, as internal names. Read by skipping the constant pool, with no bytecode
 * library: the engine asks this of every class a hierarchy probe's name hint lets through, and of
 * their super types, before it lets ByteBuddy parse anything.
 */
final class TypeHeader {

    private static final int ACC_INTERFACE = 0x0200;
    private static final String[] NONE = new String[0];

    final int access;
    /** Null for {@code java/lang/Object} and for module descriptors. */
    final String superName;
    final String[] interfaces;

    private TypeHeader(int access, String superName, String[] interfaces) {
        this.access = access;
        this.superName = superName;
        this.interfaces = interfaces;
    }

    boolean isInterface() {
        return (access & ACC_INTERFACE) != 0;
    }

    /** The same facts for a loaded class. */
    static TypeHeader of(Class<?> type) {
        Class<?>[] declared = type.getInterfaces();
        String[] interfaces = declared.length == 0 ? NONE : new String[declared.length];
        for (int i = 0; i < declared.length; i++) {
            interfaces[i] = declared[i].getName().replace('.', '/');
        }
        Class<?> superClass = type.getSuperclass();
        String superName = superClass != null ? superClass.getName().replace('.', '/')
                : type.isInterface() ? "java/lang/Object" : null;
        return new TypeHeader(type.isInterface() ? ACC_INTERFACE : 0, superName, interfaces);
    }

    /** The header of {@code classFile}, or null when the bytes are not a class file this reader understands. */
    static TypeHeader read(byte[] classFile) {
        try {
            return parse(classFile);
        } catch (RuntimeException e) {
            return null;
        } catch (IOException e) {
            return null;
        }
    }

    private static TypeHeader parse(byte[] b) throws IOException {
        int[] offsets = ConstantPool.offsets(b);
        if (offsets == null) {
            return null;
        }
        int p = offsets[offsets.length - 1];
        int access = u2(b, p);
        int superIndex = u2(b, p + 4);
        int interfaceCount = u2(b, p + 6);
        String[] interfaces = interfaceCount == 0 ? NONE : new String[interfaceCount];
        for (int i = 0; i < interfaceCount; i++) {
            interfaces[i] = className(b, offsets, u2(b, p + 8 + 2 * i));
        }
        return new TypeHeader(access, superIndex == 0 ? null : className(b, offsets, superIndex), interfaces);
    }

    private static String className(byte[] b, int[] offsets, int classIndex) throws IOException {
        int classEntry = offsets[classIndex];
        if ((b[classEntry] & 0xFF) != 7) {
            throw new IOException("not a class entry");
        }
        int utf8 = offsets[u2(b, classEntry + 1)];
        if ((b[utf8] & 0xFF) != 1) {
            throw new IOException("not a utf8 entry");
        }
        int length = u2(b, utf8 + 1);
        return new DataInputStream(new ByteArrayInputStream(b, utf8 + 1, length + 2)).readUTF();
    }
}
