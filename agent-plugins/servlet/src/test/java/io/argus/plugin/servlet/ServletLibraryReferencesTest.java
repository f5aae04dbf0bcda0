package io.argus.plugin.servlet;

import io.argus.testing.references.LibraryVersions;
import org.junit.jupiter.api.Test;

import java.nio.file.Paths;

/** The servlet plugin's advice against every version it claims: the javax and jakarta servlet containers of the ITs. */
class ServletLibraryReferencesTest {

    @Test
    void everyClaimedVersionHasWhatTheAdviceUses() {
        LibraryVersions.create().folders(Paths.get("target", "containers"))
                .assertEveryReferenceResolves(LibraryVersions.moduleClasses());
    }
}
