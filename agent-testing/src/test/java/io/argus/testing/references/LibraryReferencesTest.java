package io.argus.testing.references;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

import static org.assertj.core.api.Assertions.assertThat;

class LibraryReferencesTest {

    private static final Path PLUGIN = Paths.get("target", "test-classes");

    @Test
    void aMethodTheAdviceCallsThatAVersionLacksIsNamed(@TempDir Path dir) throws IOException {
        LibraryReferences references = LibraryReferences.of(PLUGIN);
        assertThat(references.problems("1.0", List.of(library(dir.resolve("v1.jar"), "handle"))))
                .containsExactly("1.0: reference-fixture probe of com.example.lib.Server: "
                        + "io.argus.plugin.referencefixture.HandleAdvice uses method com.example.lib.Server.gone()V,"
                        + " which is not there");
        assertThat(references.problems("2.0", List.of(library(dir.resolve("v2.jar"), "handle", "gone")))).isEmpty();
    }

    @Test
    void aVersionWithoutTheProbedMethodOrTypeIsNotThePlugins(@TempDir Path dir) throws IOException {
        LibraryReferences references = LibraryReferences.of(PLUGIN);
        assertThat(references.problems("0.9", List.of(library(dir.resolve("v09.jar"), "start"))))
                .containsExactly("0.9: no probe of the plugin applies to any type of these jars [" + dir.resolve("v09.jar") + "]");
    }

    /** A jar with {@code com.example.lib.Server} declaring the given no-argument methods. */
    private static Path library(Path jar, String... methods) throws IOException {
        ClassWriter writer = new ClassWriter(0);
        writer.visit(Opcodes.V1_8, Opcodes.ACC_PUBLIC, "com/example/lib/Server", null, "java/lang/Object", null);
        for (String method : methods) {
            MethodVisitor mv = writer.visitMethod(Opcodes.ACC_PUBLIC, method, "()V", null, null);
            mv.visitCode();
            mv.visitInsn(Opcodes.RETURN);
            mv.visitMaxs(0, 1);
            mv.visitEnd();
        }
        writer.visitEnd();
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream jarOut = new JarOutputStream(out)) {
            jarOut.putNextEntry(new JarEntry("com/example/lib/Server.class"));
            jarOut.write(writer.toByteArray());
            jarOut.closeEntry();
        }
        return jar;
    }
}
