package io.argus.plugin.grpc;

import io.argus.testing.references.LibraryVersions;
import org.junit.jupiter.api.Test;

import java.nio.file.Paths;

/** The grpc plugin's interceptors against every grpc-java it claims: 1.33.1, the oldest, and 1.85.1. */
class GrpcLibraryReferencesTest {

    @Test
    void everyClaimedVersionHasWhatTheAdviceUses() {
        LibraryVersions.create().folders(Paths.get("target", "grpc-versions"))
                .assertEveryReferenceResolves(LibraryVersions.moduleClasses());
    }
}
