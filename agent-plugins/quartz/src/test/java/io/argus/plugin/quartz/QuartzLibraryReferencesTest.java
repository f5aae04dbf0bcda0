package io.argus.plugin.quartz;

import io.argus.testing.references.LibraryVersions;
import org.junit.jupiter.api.Test;

import java.nio.file.Paths;

/**
 * The quartz plugin's advice against every Quartz it claims: the oldest (the test class path) and the newest (its
 * ITs' folder).
 */
class QuartzLibraryReferencesTest {

    @Test
    void everyClaimedVersionHasWhatTheAdviceUses() {
        LibraryVersions.create()
                .classPath("oldest", "quartz-")
                .folders(Paths.get("target", "libs"))
                .assertEveryReferenceResolves(LibraryVersions.moduleClasses());
    }
}
