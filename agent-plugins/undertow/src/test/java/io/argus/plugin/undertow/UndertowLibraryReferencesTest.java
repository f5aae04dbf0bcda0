package io.argus.plugin.undertow;

import io.argus.testing.references.LibraryVersions;
import org.junit.jupiter.api.Test;

import java.nio.file.Paths;

/** The undertow plugin's advice against every version it claims: Undertow 2.2.0 and the newest 2.3. */
class UndertowLibraryReferencesTest {

    @Test
    void everyClaimedVersionHasWhatTheAdviceUses() {
        LibraryVersions.create().folders(Paths.get("target", "undertow"))
                .assertEveryReferenceResolves(LibraryVersions.moduleClasses());
    }
}
