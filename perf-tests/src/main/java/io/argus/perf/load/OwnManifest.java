package io.argus.perf.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/** Attributes of the suite's own jar manifest (the build writes the pinned Gatling and peer versions there). */
public final class OwnManifest {

    private OwnManifest() {
    }

    public static String attribute(String name, String fallback) {
        try {
            Path location = Path.of(OwnManifest.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (Files.isRegularFile(location)) {
                try (JarFile jar = new JarFile(location.toFile())) {
                    Manifest m = jar.getManifest();
                    String v = m == null ? null : m.getMainAttributes().getValue(name);
                    return v == null ? fallback : v;
                }
            }
        } catch (IOException | java.net.URISyntaxException | RuntimeException e) {
            // fall back
        }
        return fallback;
    }
}
