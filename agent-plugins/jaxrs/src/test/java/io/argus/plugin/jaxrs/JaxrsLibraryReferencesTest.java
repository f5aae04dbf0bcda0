package io.argus.plugin.jaxrs;

import io.argus.testing.references.LibraryVersions;
import org.junit.jupiter.api.Test;

import java.nio.file.Paths;

/** The jaxrs plugin's advice against every version it claims: Jersey 2 (javax) and 3 (jakarta). */
class JaxrsLibraryReferencesTest {

    @Test
    void everyClaimedVersionHasWhatTheAdviceUses() {
        LibraryVersions.create().folders(Paths.get("target", "jersey"), "jersey-")
                .assertEveryReferenceResolves(LibraryVersions.moduleClasses());
    }
}
