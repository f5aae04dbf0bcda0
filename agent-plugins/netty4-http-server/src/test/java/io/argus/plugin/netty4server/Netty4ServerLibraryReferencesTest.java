package io.argus.plugin.netty4server;

import io.argus.testing.references.LibraryVersions;
import org.junit.jupiter.api.Test;

import java.nio.file.Paths;

/** The netty4-http-server plugin's advice against every version it claims: Netty 4.1.50, the newest 4.1 and 4.2. */
class Netty4ServerLibraryReferencesTest {

    @Test
    void everyClaimedVersionHasWhatTheAdviceUses() {
        LibraryVersions.create().folders(Paths.get("target", "netty4"))
                .assertEveryReferenceResolves(LibraryVersions.moduleClasses());
    }
}
