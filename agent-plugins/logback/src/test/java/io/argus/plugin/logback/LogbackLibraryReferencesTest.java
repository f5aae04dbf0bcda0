package io.argus.plugin.logback;

import io.argus.testing.references.LibraryVersions;
import org.junit.jupiter.api.Test;

import java.nio.file.Paths;

/** The logback plugin's advice against every version it claims: Logback 1.2 and the newest. */
class LogbackLibraryReferencesTest {

    @Test
    void everyClaimedVersionHasWhatTheAdviceUses() {
        LibraryVersions.create().folders(Paths.get("target", "logback"))
                .assertEveryReferenceResolves(LibraryVersions.moduleClasses());
    }
}
