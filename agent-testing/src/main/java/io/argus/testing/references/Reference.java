package io.argus.testing.references;

import io.argus.core.plugin.TypeProbe;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** One type, method or field a plugin class names. */
record Reference(Kind kind, String owner, String name, String descriptor) {

    enum Kind { TYPE, METHOD, FIELD }

    /** A probe: its target type, its advice (each with its method matcher) and its helper classes. */
    record Site(String plugin, String targetType, boolean hierarchy, List<TypeProbe.MethodAdvice> advice,
                List<String> helpers) {
    }

    /** Every reference to a type outside the JDK, the agent and ByteBuddy that the class's code makes. */
    static Set<Reference> readAll(byte[] classFile) {
        Set<Reference> references = new LinkedHashSet<>();
        new ClassReader(classFile).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public void visit(int version, int access, String name, String signature, String superName, String[] ifaces) {
                type(superName);
                if (ifaces != null) {
                    for (String i : ifaces) {
                        type(i);
                    }
                }
            }

            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
                types(Type.getMethodType(descriptor));
                return new MethodVisitor(Opcodes.ASM9) {
                    @Override
                    public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
                        add(new Reference(Kind.METHOD, owner, name, descriptor));
                    }

                    @Override
                    public void visitFieldInsn(int opcode, String owner, String name, String descriptor) {
                        add(new Reference(Kind.FIELD, owner, name, descriptor));
                    }

                    @Override
                    public void visitTypeInsn(int opcode, String type) {
                        type(type.startsWith("[") ? Type.getType(type).getElementType().getInternalName() : type);
                    }

                    @Override
                    public void visitLdcInsn(Object value) {
                        if (value instanceof Type t && t.getSort() == Type.OBJECT) {
                            type(t.getInternalName());
                        }
                    }
                };
            }

            private void types(Type method) {
                for (Type t : method.getArgumentTypes()) {
                    typeOf(t);
                }
                typeOf(method.getReturnType());
            }

            private void typeOf(Type t) {
                Type element = t.getSort() == Type.ARRAY ? t.getElementType() : t;
                if (element.getSort() == Type.OBJECT) {
                    type(element.getInternalName());
                }
            }

            private void type(String internalName) {
                if (internalName != null) {
                    add(new Reference(Kind.TYPE, internalName, null, null));
                }
            }

            private void add(Reference reference) {
                if (isLibrary(reference.owner)) {
                    references.add(reference);
                }
            }
        }, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        return references;
    }

    /** Every class the class file names in its constant pool (internal names), the agent's own included. */
    static Set<String> classNames(byte[] classFile) {
        ClassReader reader = new ClassReader(classFile);
        Set<String> names = new LinkedHashSet<>();
        char[] buffer = new char[reader.getMaxStringLength()];
        for (int i = 1; i < reader.getItemCount(); i++) {
            int offset = reader.getItem(i);
            if (offset > 0 && classFile[offset - 1] == 7) { // CONSTANT_Class: its name's index follows the tag
                names.add(reader.readUTF8(offset, buffer));
            }
        }
        return names;
    }

    private static boolean isLibrary(String internalName) {
        return !(internalName.startsWith("java/") || internalName.startsWith("jdk/") || internalName.startsWith("sun/")
                || internalName.startsWith("io/argus/") || internalName.startsWith("net/bytebuddy/")
                || internalName.startsWith("["));
    }

    /** What of this reference the library lacks, or null. */
    String missingIn(LibraryReferences.ClassFiles library) {
        if (library.shape(owner) == null) {
            return "type " + owner.replace('/', '.') + ", which is not there";
        }
        return switch (kind) {
            case TYPE -> null;
            case METHOD -> library.declares(owner, name, descriptor, true) ? null
                    : "method " + owner.replace('/', '.') + "." + name + descriptor + ", which is not there";
            case FIELD -> library.declares(owner, name, descriptor, false) ? null
                    : "field " + owner.replace('/', '.') + "." + name + " " + descriptor + ", which is not there";
        };
    }
}
