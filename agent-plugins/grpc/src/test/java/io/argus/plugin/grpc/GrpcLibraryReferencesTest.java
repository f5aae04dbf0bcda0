package io.argus.plugin.grpc;

import io.argus.testing.references.LibraryVersions;
import org.junit.jupiter.api.Test;

/** The grpc plugin's advice against the gRPC its IT runs (the test class path). */
class GrpcLibraryReferencesTest {

    @Test
    void everyClaimedVersionHasWhatTheAdviceUses() {
        LibraryVersions.create()
                .classPath("tested", "grpc-")
                .assertEveryReferenceResolves(LibraryVersions.moduleClasses());
    }
}
