package io.argus.testing.references;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** What a class file declares: its super types, and its methods and fields as name plus descriptor. */
record ClassShape(String superName, List<String> interfaces, Set<String> methods, Set<String> fields) {

    static ClassShape read(byte[] classFile) {
        String[] header = new String[1];
        List<String>[] interfaces = new List[1];
        Set<String> methods = new HashSet<>();
        Set<String> fields = new HashSet<>();
        new ClassReader(classFile).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public void visit(int version, int access, String name, String signature, String superName, String[] ifaces) {
                header[0] = superName;
                interfaces[0] = ifaces == null ? List.of() : List.of(ifaces);
            }

            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
                methods.add(name + descriptor);
                return null;
            }

            @Override
            public FieldVisitor visitField(int access, String name, String descriptor, String signature, Object value) {
                fields.add(name + descriptor);
                return null;
            }
        }, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        return new ClassShape(header[0], interfaces[0], methods, fields);
    }
}
