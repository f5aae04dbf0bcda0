package io.argus.plugin.lettuce;

import io.argus.testing.references.LibraryVersions;
import org.junit.jupiter.api.Test;

import java.nio.file.Paths;

/**
 * The lettuce plugin's advice against every Lettuce it claims: the oldest (its ITs' folder) and the newest (the test
 * class path), each with the Netty the ITs run it on.
 */
class LettuceLibraryReferencesTest {

    @Test
    void everyClaimedVersionHasWhatTheAdviceUses() {
        LibraryVersions.create()
                .folders(Paths.get("target", "libs"))
                .classPath("newest", "lettuce-core-")
                .withEach("netty-")
                .assertEveryReferenceResolves(LibraryVersions.moduleClasses());
    }
}
