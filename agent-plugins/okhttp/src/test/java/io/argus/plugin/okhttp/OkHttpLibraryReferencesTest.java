package io.argus.plugin.okhttp;

import io.argus.testing.references.LibraryVersions;
import org.junit.jupiter.api.Test;

import java.nio.file.Paths;

/** The okhttp plugin's advice against every version it claims: OkHttp 3.12, 3.14, 4 and 5. */
class OkHttpLibraryReferencesTest {

    @Test
    void everyClaimedVersionHasWhatTheAdviceUses() {
        LibraryVersions.create().folders(Paths.get("target", "libs"))
                .assertEveryReferenceResolves(LibraryVersions.moduleClasses());
    }
}
