package io.argus.plugin.kafka;

import io.argus.testing.references.LibraryVersions;
import org.junit.jupiter.api.Test;

import java.nio.file.Paths;

/**
 * The kafka-clients plugin's advice against every version it claims: kafka-clients 2.8, 3.9 and 4.1, and Spring
 * Kafka's batch listener container in 3.3 and 4.0.
 */
class KafkaLibraryReferencesTest {

    @Test
    void everyClaimedVersionHasWhatTheAdviceUses() {
        LibraryVersions.create().folders(Paths.get("target", "kafka-versions"))
                .assertEveryReferenceResolves(LibraryVersions.moduleClasses());
    }
}
