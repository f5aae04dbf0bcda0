package io.argus.plugin.jetty;

import io.argus.testing.references.LibraryVersions;
import org.junit.jupiter.api.Test;

import java.nio.file.Paths;

/** The jetty plugin's advice against every Jetty it claims: 9.4 (the test class path) and each 12.x of the ITs. */
class JettyLibraryReferencesTest {

    @Test
    void everyClaimedVersionHasWhatTheAdviceUses() {
        LibraryVersions.create()
                .classPath("9.4", "jetty-server-9", "jetty-http-9", "jetty-io-9", "jetty-util-9", "javax.servlet-api")
                .folders(Paths.get("target", "jetty"))
                .assertEveryReferenceResolves(LibraryVersions.moduleClasses());
    }
}
