package io.argus.plugin.netty3;

import io.argus.testing.references.LibraryVersions;
import org.junit.jupiter.api.Test;

import java.nio.file.Paths;

/** The netty3-client plugin's advice against every version it claims: Netty 3.3.0 and 3.10.6 (Apache Druid's). */
class Netty3LibraryReferencesTest {

    @Test
    void everyClaimedVersionHasWhatTheAdviceUses() {
        LibraryVersions.create().folders(Paths.get("target", "netty3"))
                .assertEveryReferenceResolves(LibraryVersions.moduleClasses());
    }
}
