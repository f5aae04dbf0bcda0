package io.argus.plugin.jdbc;

import io.argus.testing.references.LibraryVersions;
import org.junit.jupiter.api.Test;

import java.nio.file.Paths;

/** The jdbc plugin's advice against every version it claims: the drivers of the ITs (H2 2.0 and the newest, Derby 10.14). */
class JdbcLibraryReferencesTest {

    @Test
    void everyClaimedVersionHasWhatTheAdviceUses() {
        LibraryVersions.create().folders(Paths.get("target", "jdbc"))
                .assertEveryReferenceResolves(LibraryVersions.moduleClasses());
    }
}
