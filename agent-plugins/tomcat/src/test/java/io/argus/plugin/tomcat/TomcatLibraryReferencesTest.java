package io.argus.plugin.tomcat;

import io.argus.testing.references.LibraryVersions;
import org.junit.jupiter.api.Test;

import java.nio.file.Paths;

/** The tomcat plugin's advice against every version it claims: Tomcat 9.0.1, 9.0 newest, 10.1.0 and 11. */
class TomcatLibraryReferencesTest {

    @Test
    void everyClaimedVersionHasWhatTheAdviceUses() {
        LibraryVersions.create().folders(Paths.get("target", "tomcat"))
                .assertEveryReferenceResolves(LibraryVersions.moduleClasses());
    }
}
