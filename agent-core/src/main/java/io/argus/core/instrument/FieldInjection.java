package io.argus.core.instrument;

import io.argus.core.AgentLog;
import io.argus.core.state.FieldRegistry;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.FieldVisitor;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.utility.OpenedClassReader;

import java.util.Arrays;

/**
 * Adds the declared fields to an owner class as it loads, and implements
 * {@code io.argus.bridge.state.FieldOwner} over them: one private transient field per slot, and four
 * accessors that pick the field by slot with a switch and answer "absent" for any other slot (so
 * the bridge falls back to its map). Interfaces, and serializable classes that leave their
 * {@code serialVersionUID} to be computed (new members would change it), are left as they are.
 * Plain ASM: no ByteBuddy type is described, so an owner class that loads before the engine is up
 * still gets its fields.
 */
final class FieldInjection {

    static final String FIELD_OWNER = "io/argus/bridge/state/FieldOwner";
    private static final String OBJECT = "java/lang/Object";
    private static final String SERIALIZABLE = "java/io/Serializable";

    private final int[] objectSlots;
    private final int[] longSlots;

    FieldInjection(FieldRegistry.OwnerFields fields) {
        this.objectSlots = fields.objectSlots();
        this.longSlots = fields.longSlots();
    }

    /**
     * The class file with the fields, or null to leave the class as it is.
     *
     * @param serializable whether the class is serializable ({@link #isSerializable})
     */
    byte[] inject(String internalName, byte[] classFile, boolean serializable) {
        TypeHeader header = TypeHeader.read(classFile);
        if (header == null || header.isInterface()) {
            return null;
        }
        ClassReader reader = OpenedClassReader.of(classFile);
        if (serializable && !declaresSerialVersionUid(reader)) {
            AgentLog.debug("no fields added to " + internalName + ": serializable without serialVersionUID");
            return null;
        }
        ClassWriter writer = new ClassWriter(reader, 0);
        reader.accept(new Injector(writer), 0);
        return writer.toByteArray();
    }

    /** Whether the class implements {@code Serializable}, from its super types' class files. */
    static boolean isSerializable(ClassLoader loader, String internalName, byte[] classFile, SuperTypeWalk superTypes) {
        return superTypes.isConcreteSubtype(loader, internalName, classFile, SERIALIZABLE);
    }

    /**
     * What {@link #inject} makes of a class file depends on besides its bytes: the slots, and whether the
     * class is serializable. The class cache keeps the result under it.
     */
    String describe(boolean serializable) {
        return "fields o" + Arrays.toString(objectSlots) + " l" + Arrays.toString(longSlots)
                + (serializable ? " serializable" : "");
    }

    private static boolean declaresSerialVersionUid(ClassReader reader) {
        final boolean[] found = {false};
        reader.accept(new ClassVisitor(OpenedClassReader.ASM_API) {
            @Override
            public FieldVisitor visitField(int access, String name, String descriptor, String signature, Object value) {
                if (name.equals("serialVersionUID")) {
                    found[0] = true;
                }
                return null;
            }
        }, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        return found[0];
    }

    private final class Injector extends ClassVisitor {
        private String owner;
        private boolean frames;
        private boolean inject = true;

        Injector(ClassVisitor next) {
            super(OpenedClassReader.ASM_API, next);
        }

        @Override
        public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
            owner = name;
            frames = (version & 0xFFFF) >= Opcodes.V1_6;
            String[] extended = interfaces == null ? new String[0] : interfaces;
            if (Arrays.asList(extended).contains(FIELD_OWNER)) {
                inject = false;
            } else {
                extended = Arrays.copyOf(extended, extended.length + 1);
                extended[extended.length - 1] = FIELD_OWNER;
                if (signature != null) {
                    signature = signature + "L" + FIELD_OWNER + ";";
                }
            }
            super.visit(version, access, name, signature, superName, extended);
        }

        @Override
        public void visitEnd() {
            if (inject) {
                for (int slot : objectSlots) {
                    super.visitField(FIELD_ACCESS, "argus$o" + slot, "L" + OBJECT + ";", null, null).visitEnd();
                }
                for (int slot : longSlots) {
                    super.visitField(FIELD_ACCESS, "argus$l" + slot, "J", null, null).visitEnd();
                }
                getter("argus$getObject", "(I)Ljava/lang/Object;", objectSlots, false);
                setter("argus$setObject", "(ILjava/lang/Object;)Z", objectSlots, false);
                getter("argus$getLong", "(I)J", longSlots, true);
                setter("argus$setLong", "(IJ)Z", longSlots, true);
            }
            super.visitEnd();
        }

        private void getter(String name, String descriptor, int[] slots, boolean isLong) {
            MethodVisitor mv = super.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_SYNTHETIC, name, descriptor, null, null);
            mv.visitCode();
            Object[] locals = {owner, Opcodes.INTEGER};
            Label[] cases = switchOnSlot(mv, slots);
            for (int i = 0; i < slots.length; i++) {
                label(mv, cases[i], locals);
                mv.visitVarInsn(Opcodes.ALOAD, 0);
                mv.visitFieldInsn(Opcodes.GETFIELD, owner, fieldName(slots[i], isLong), isLong ? "J" : "L" + OBJECT + ";");
                mv.visitInsn(isLong ? Opcodes.LRETURN : Opcodes.ARETURN);
            }
            label(mv, cases[slots.length], locals);
            if (isLong) {
                mv.visitLdcInsn(Long.MIN_VALUE);
                mv.visitInsn(Opcodes.LRETURN);
            } else {
                mv.visitFieldInsn(Opcodes.GETSTATIC, FIELD_OWNER, "ABSENT", "L" + OBJECT + ";");
                mv.visitInsn(Opcodes.ARETURN);
            }
            mv.visitMaxs(2, 2);
            mv.visitEnd();
        }

        private void setter(String name, String descriptor, int[] slots, boolean isLong) {
            MethodVisitor mv = super.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_SYNTHETIC, name, descriptor, null, null);
            mv.visitCode();
            Object[] locals = {owner, Opcodes.INTEGER, isLong ? Opcodes.LONG : OBJECT};
            Label[] cases = switchOnSlot(mv, slots);
            for (int i = 0; i < slots.length; i++) {
                label(mv, cases[i], locals);
                mv.visitVarInsn(Opcodes.ALOAD, 0);
                mv.visitVarInsn(isLong ? Opcodes.LLOAD : Opcodes.ALOAD, 2);
                mv.visitFieldInsn(Opcodes.PUTFIELD, owner, fieldName(slots[i], isLong), isLong ? "J" : "L" + OBJECT + ";");
                mv.visitInsn(Opcodes.ICONST_1);
                mv.visitInsn(Opcodes.IRETURN);
            }
            label(mv, cases[slots.length], locals);
            mv.visitInsn(Opcodes.ICONST_0);
            mv.visitInsn(Opcodes.IRETURN);
            mv.visitMaxs(isLong ? 3 : 2, isLong ? 4 : 3);
            mv.visitEnd();
        }

        /** {@code switch (slot)}: one label per slot, then the default's. */
        private Label[] switchOnSlot(MethodVisitor mv, int[] slots) {
            Label[] labels = new Label[slots.length + 1];
            for (int i = 0; i < labels.length; i++) {
                labels[i] = new Label();
            }
            mv.visitVarInsn(Opcodes.ILOAD, 1);
            mv.visitLookupSwitchInsn(labels[slots.length], slots, Arrays.copyOf(labels, slots.length));
            return labels;
        }

        private void label(MethodVisitor mv, Label label, Object[] locals) {
            mv.visitLabel(label);
            if (frames) {
                mv.visitFrame(Opcodes.F_NEW, locals.length, locals, 0, new Object[0]);
            }
        }
    }

    private static final int FIELD_ACCESS = Opcodes.ACC_PRIVATE | Opcodes.ACC_TRANSIENT | Opcodes.ACC_SYNTHETIC;

    static String fieldName(int slot, boolean isLong) {
        return (isLong ? "argus$l" : "argus$o") + slot;
    }
}
