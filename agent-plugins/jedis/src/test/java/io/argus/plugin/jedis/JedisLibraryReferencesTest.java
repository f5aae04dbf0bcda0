package io.argus.plugin.jedis;

import io.argus.testing.references.LibraryVersions;
import org.junit.jupiter.api.Test;

import java.nio.file.Paths;

/**
 * The jedis plugin's advice against every Jedis it claims: the oldest (its ITs' folder) and the newest (the test
 * class path).
 */
class JedisLibraryReferencesTest {

    @Test
    void everyClaimedVersionHasWhatTheAdviceUses() {
        LibraryVersions.create()
                .folders(Paths.get("target", "libs"))
                .classPath("newest", "jedis-")
                .assertEveryReferenceResolves(LibraryVersions.moduleClasses());
    }
}
