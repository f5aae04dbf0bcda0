package io.argus.plugin.reactornetty;

import io.argus.testing.references.LibraryVersions;
import org.junit.jupiter.api.Test;

import java.nio.file.Paths;

/** The reactor-netty plugin's advice against every version it claims: Reactor Netty 1.2 (Netty 4.1) and 1.3 (Netty 4.2). */
class ReactorNettyLibraryReferencesTest {

    @Test
    void everyClaimedVersionHasWhatTheAdviceUses() {
        LibraryVersions.create().folders(Paths.get("target", "reactor-netty"))
                .assertEveryReferenceResolves(LibraryVersions.moduleClasses());
    }
}
