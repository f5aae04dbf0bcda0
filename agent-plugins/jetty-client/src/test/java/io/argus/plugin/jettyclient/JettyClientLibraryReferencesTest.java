package io.argus.plugin.jettyclient;

import io.argus.testing.references.LibraryVersions;
import org.junit.jupiter.api.Test;

import java.nio.file.Paths;

/** The jetty-client plugin's advice against every version it claims: Jetty 9.4.0, 9.4 newest and each 12.x client. */
class JettyClientLibraryReferencesTest {

    @Test
    void everyClaimedVersionHasWhatTheAdviceUses() {
        LibraryVersions.create().folders(Paths.get("target", "jetty-client"))
                .assertEveryReferenceResolves(LibraryVersions.moduleClasses());
    }
}
