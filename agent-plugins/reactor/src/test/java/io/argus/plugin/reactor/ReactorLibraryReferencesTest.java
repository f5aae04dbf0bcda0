package io.argus.plugin.reactor;

import io.argus.testing.references.LibraryVersions;
import org.junit.jupiter.api.Test;

import java.nio.file.Paths;

/** The reactor plugin's advice and helpers against every version it claims: reactor-core 3.7 and 3.8. */
class ReactorLibraryReferencesTest {

    @Test
    void everyClaimedVersionHasWhatTheAdviceUses() {
        LibraryVersions.create().folders(Paths.get("target", "reactor-core"))
                .assertEveryReferenceResolves(LibraryVersions.moduleClasses());
    }
}
