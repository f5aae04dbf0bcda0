package io.argus.scaleout.kafka;

import io.argus.perf.harness.DownloadCache;
import io.argus.perf.harness.MavenFetch;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * Apache Kafka's broker jars ({@code org.apache.kafka:kafka_2.13} and its runtime dependencies, plus the
 * log4j binding of its SLF4J logging), fetched from Maven Central on first use into {@code <home>/lib} and cached
 * ({@link MavenFetch}).
 */
public final class KafkaInstall {
    /** The log4j version Kafka's broker is built with; only its SLF4J 1.x binding is added. */
    static final String LOG4J_VERSION = "2.24.3";

    private final Path home;
    private final String version;

    public KafkaInstall(Path home, String version) {
        this.home = home.toAbsolutePath().normalize();
        this.version = version;
    }

    /** The install of the pinned version in the default cache. */
    public static KafkaInstall pinned() {
        String version = pinnedVersion();
        return new KafkaInstall(defaultHome(version), version);
    }

    /** {@code kafka.version} of the parent POM. */
    public static String pinnedVersion() {
        return buildProperty("kafka.version");
    }

    static String buildProperty(String name) {
        try (InputStream in = KafkaInstall.class.getResourceAsStream("/io/argus/scaleout/versions.properties")) {
            Properties p = new Properties();
            p.load(in);
            return p.getProperty(name);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code $ARGUS_PERF_CACHE/kafka-<version>}, else {@code ~/.cache/argus-perf/kafka-<version>}. */
    public static Path defaultHome(String version) {
        return DownloadCache.root().resolve("kafka-" + version);
    }

    public Path home() {
        return home;
    }

    public String version() {
        return version;
    }

    public Path lib() {
        return home.resolve("lib");
    }

    public boolean ready() {
        return MavenFetch.complete(home);
    }

    /** Fetches the jars unless they are cached; returns the number of jars. */
    public synchronized int ensure(PrintStream log) throws IOException, InterruptedException {
        if (!ready()) {
            fetch(log);
        }
        try (Stream<Path> jars = Files.list(lib())) {
            return (int) jars.filter(p -> p.toString().endsWith(".jar")).count();
        }
    }

    private void fetch(PrintStream log) throws IOException, InterruptedException {
        MavenFetch fetch = new MavenFetch(pom(version), home.resolve("pom.xml"), lib(), home.resolve("fetch.log"));
        String plugin = buildProperty("dependency-plugin.version");
        log.println("[argus-scale-out] fetching Apache Kafka " + version + " from Maven Central into " + lib()
                + " (once; about 30 MB): " + String.join(" ", fetch.command(plugin)));
        fetch.copy(plugin);
        fetch.expect("kafka_2.13-" + version + ".jar");
        MavenFetch.markComplete(home, version);
    }

    static String pom(String version) {
        return """
                <?xml version="1.0" encoding="UTF-8"?>
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <!-- written by argus-scale-out to fetch the Kafka broker's jars -->
                  <groupId>io.argus.scaleout</groupId>
                  <artifactId>kafka-broker</artifactId>
                  <version>1</version>
                  <packaging>pom</packaging>
                  <dependencies>
                    <dependency>
                      <groupId>org.apache.kafka</groupId>
                      <artifactId>kafka_2.13</artifactId>
                      <version>%s</version>
                    </dependency>
                    <dependency>
                      <groupId>org.apache.logging.log4j</groupId>
                      <artifactId>log4j-slf4j-impl</artifactId>
                      <version>%s</version>
                    </dependency>
                  </dependencies>
                </project>
                """.formatted(version, LOG4J_VERSION);
    }
}
