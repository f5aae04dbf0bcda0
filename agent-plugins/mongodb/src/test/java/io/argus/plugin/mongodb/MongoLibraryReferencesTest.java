package io.argus.plugin.mongodb;

import io.argus.testing.references.LibraryVersions;
import org.junit.jupiter.api.Test;

import java.nio.file.Paths;

/**
 * The mongodb plugin's advice against every driver it claims: the oldest (its ITs' folder) and the newest (the test
 * class path).
 */
class MongoLibraryReferencesTest {

    @Test
    void everyClaimedVersionHasWhatTheAdviceUses() {
        LibraryVersions.create()
                .folders(Paths.get("target", "libs"))
                .classPath("newest", "mongodb-driver-", "bson-")
                .assertEveryReferenceResolves(LibraryVersions.moduleClasses());
    }
}
