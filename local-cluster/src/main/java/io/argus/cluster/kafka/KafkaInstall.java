package io.argus.cluster.kafka;

import io.argus.cluster.PinnedVersions;
import io.argus.cluster.fetch.Artifact;
import io.argus.cluster.fetch.CachedInstall;
import io.argus.cluster.fetch.MavenFetch;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * Apache Kafka's broker jars ({@code org.apache.kafka:kafka_2.13} and its runtime dependencies, plus the
 * log4j binding of its SLF4J logging), fetched from Maven Central on first use into {@code <home>/lib} and cached
 * ({@link MavenFetch}).
 */
public final class KafkaInstall extends CachedInstall {
    /** The log4j version Kafka's broker is built with; only its SLF4J 1.x binding is added. */
    static final String LOG4J_VERSION = "2.24.3";


    public KafkaInstall(Path home, String version) {
        super(home, version);
    }

    /** The install of the pinned version in the default cache. */
    public static KafkaInstall pinned() {
        String version = pinnedVersion();
        return new KafkaInstall(defaultHome(version), version);
    }

    /** {@code kafka.version} of the parent POM. */
    public static String pinnedVersion() {
        return PinnedVersions.kafka();
    }

    /** {@code $ARGUS_PERF_CACHE/kafka-<version>}, else {@code ~/.cache/argus-perf/kafka-<version>}. */
    public static Path defaultHome(String version) {
        return cacheHome("kafka", version);
    }

    @Override
    public boolean ready() {
        return MavenFetch.complete(home());
    }

    @Override
    public synchronized int ensure(PrintStream log) throws IOException, InterruptedException {
        Artifact broker = new Artifact("org.apache.kafka", "kafka_2.13", version());
        MavenFetch.of(home(), "", lib(), artifacts(version()))
                .once("Apache Kafka " + version(), home(), version(), broker.jar(), log, into -> { });
        return MavenFetch.countJars(lib());
    }

    static List<Artifact> artifacts(String version) {
        return List.of(new Artifact("org.apache.kafka", "kafka_2.13", version),
                new Artifact("org.apache.logging.log4j", "log4j-slf4j-impl", LOG4J_VERSION));
    }
}
