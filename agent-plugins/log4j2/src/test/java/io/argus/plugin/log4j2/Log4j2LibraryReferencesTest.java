package io.argus.plugin.log4j2;

import io.argus.testing.references.LibraryVersions;
import org.junit.jupiter.api.Test;

import java.nio.file.Paths;

/** The log4j2 plugin's advice against every version it claims: the oldest and the newest Log4j 2. */
class Log4j2LibraryReferencesTest {

    @Test
    void everyClaimedVersionHasWhatTheAdviceUses() {
        LibraryVersions.create().folders(Paths.get("target", "log4j2"))
                .assertEveryReferenceResolves(LibraryVersions.moduleClasses());
    }
}
