package io.argus.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Removes the temporary folders the test fixtures make, once the fixture that made one stops. */
public final class TempFolders {

    private TempFolders() {
    }

    /** Deletes {@code root} and everything under it; what cannot be deleted stays behind. */
    public static void delete(Path root) {
        if (root == null) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temporary folder left behind
        }
    }
}
