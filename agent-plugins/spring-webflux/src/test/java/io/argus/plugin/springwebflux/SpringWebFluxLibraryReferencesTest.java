package io.argus.plugin.springwebflux;

import io.argus.testing.references.LibraryVersions;
import org.junit.jupiter.api.Test;

import java.nio.file.Paths;

/**
 * The spring-webflux plugin's advice against every version it claims: Spring Framework 6.2 with Reactor Netty 1.2
 * (Boot 3.5) and 7.0 with Reactor Netty 1.3 (Boot 4.0).
 */
class SpringWebFluxLibraryReferencesTest {

    @Test
    void everyClaimedVersionHasWhatTheAdviceUses() {
        LibraryVersions.create().folders(Paths.get("target", "spring-webflux"))
                .assertEveryReferenceResolves(LibraryVersions.moduleClasses());
    }
}
