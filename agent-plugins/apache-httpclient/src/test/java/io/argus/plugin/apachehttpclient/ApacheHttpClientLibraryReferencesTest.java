package io.argus.plugin.apachehttpclient;

import io.argus.testing.references.LibraryVersions;
import org.junit.jupiter.api.Test;

import java.nio.file.Paths;

/** The apache-httpclient plugin's advice against every version it claims: HttpClient 4.3, 4.5 and 5.0, 5.6, as the ITs run them. */
class ApacheHttpClientLibraryReferencesTest {

    @Test
    void everyClaimedVersionHasWhatTheAdviceUses() {
        LibraryVersions.create().folders(Paths.get("target", "libs"))
                .assertEveryReferenceResolves(LibraryVersions.moduleClasses());
    }
}
