package io.argus.perf.floor;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/** Packs {@link TransformerFloorAgent} into an agent jar of its own, for {@code -javaagent:}. */
public final class TransformerFloorJar {

    public static final String FILE_NAME = "transformer-floor-agent.jar";
    private static final List<Class<?>> CLASSES = List.of(TransformerFloorAgent.class,
            TransformerFloorAgent.NoChange.class);

    private TransformerFloorJar() {
    }

    /** Writes the jar to {@code jar}, replacing a file there. */
    public static void write(Path jar) throws IOException {
        Manifest manifest = new Manifest();
        Attributes main = manifest.getMainAttributes();
        main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        main.put(new Attributes.Name("Premain-Class"), TransformerFloorAgent.class.getName());
        main.put(new Attributes.Name("Can-Retransform-Classes"), "true");
        Files.createDirectories(jar.toAbsolutePath().getParent());
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file, manifest)) {
            for (Class<?> c : CLASSES) {
                String entry = c.getName().replace('.', '/') + ".class";
                try (InputStream in = c.getClassLoader().getResourceAsStream(entry)) {
                    if (in == null) {
                        throw new IOException("cannot read " + entry + " from the harness's class path");
                    }
                    out.putNextEntry(new JarEntry(entry));
                    in.transferTo(out);
                    out.closeEntry();
                }
            }
        }
    }
}
