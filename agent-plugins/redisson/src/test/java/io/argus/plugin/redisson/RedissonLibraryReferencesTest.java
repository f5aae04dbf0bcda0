package io.argus.plugin.redisson;

import io.argus.testing.references.LibraryVersions;
import org.junit.jupiter.api.Test;

import java.nio.file.Paths;

/**
 * The redisson plugin's advice against every Redisson it claims: the oldest (its ITs' folder) and the newest (the
 * test class path), each with the Netty the ITs run it on.
 */
class RedissonLibraryReferencesTest {

    @Test
    void everyClaimedVersionHasWhatTheAdviceUses() {
        LibraryVersions.create()
                .folders(Paths.get("target", "libs"))
                .classPath("newest", "redisson-")
                .withEach("netty-")
                .assertEveryReferenceResolves(LibraryVersions.moduleClasses());
    }
}
