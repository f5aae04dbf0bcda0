package io.argus.perf.load.druid;

import io.argus.perf.load.OwnManifest;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Apache Druid's jars, fetched from Maven Central on first use and cached: {@code druid-services}
 * and its dependencies minus {@code org.hyperic:sigar} (not on Central; Druid runs without it),
 * copied by Maven into {@code <home>/lib}. The default build never downloads Druid; only a run
 * with {@code --target druid} does. A finished fetch leaves {@value #COMPLETE}, so an interrupted
 * one is redone.
 */
public final class DruidInstall {

    static final String COMPLETE = "lib.complete";

    private final Path home;
    private final String version;

    public DruidInstall(Path home, String version) {
        this.home = home.toAbsolutePath().normalize();
        this.version = version;
    }

    /** The version pinned in the parent POM (carried in the suite's manifest). */
    public static String pinnedVersion() {
        return OwnManifest.attribute("Argus-Druid-Version", "33.0.0");
    }

    /** {@code $ARGUS_PERF_CACHE/druid-<version>}, else {@code ~/.cache/argus-perf/druid-<version>}. */
    public static Path defaultHome(String version) {
        String cache = System.getenv("ARGUS_PERF_CACHE");
        Path root = cache != null && !cache.isBlank() ? Path.of(cache)
                : Path.of(System.getProperty("user.home"), ".cache", "argus-perf");
        return root.resolve("druid-" + version);
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
        return Files.isRegularFile(home.resolve(COMPLETE));
    }

    /** Fetches the jars unless they are cached; returns the number of jars. */
    public int ensure(PrintStream log) throws IOException, InterruptedException {
        if (!ready()) {
            fetch(log);
        }
        try (Stream<Path> jars = Files.list(lib())) {
            return (int) jars.filter(p -> p.toString().endsWith(".jar")).count();
        }
    }

    private void fetch(PrintStream log) throws IOException, InterruptedException {
        Files.createDirectories(home);
        Path pom = home.resolve("pom.xml");
        Files.writeString(pom, pom(version), StandardCharsets.UTF_8);
        Path out = home.resolve("fetch.log");
        List<String> cmd = List.of(maven(), "-B", "-q", "-f", pom.toString(),
                "org.apache.maven.plugins:maven-dependency-plugin:"
                        + OwnManifest.attribute("Argus-Dependency-Plugin-Version", "3.9.0") + ":copy-dependencies",
                "-DoutputDirectory=" + lib(), "-DincludeScope=runtime");
        log.println("[argus-perf] fetching Apache Druid " + version + " from Maven Central into " + lib()
                + " (once; about 180 MB): " + String.join(" ", cmd));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        if (!p.waitFor(30, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IOException("fetching Druid took more than 30 minutes; see " + out);
        }
        if (p.exitValue() != 0) {
            throw new IOException("fetching Druid failed (mvn exit " + p.exitValue() + "); see " + out + ":\n"
                    + tail(out));
        }
        if (!Files.isRegularFile(lib().resolve("druid-services-" + version + ".jar"))) {
            throw new IOException("Maven finished but " + lib() + " holds no druid-services-" + version + ".jar");
        }
        Files.writeString(home.resolve(COMPLETE), version + System.lineSeparator());
    }

    /** {@code $MAVEN_CMD}, else mvn from the PATH. */
    private static String maven() {
        String m = System.getenv("MAVEN_CMD");
        return m != null && !m.isBlank() ? m : "mvn";
    }

    private static String tail(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    }

    static String pom(String version) {
        return """
                <?xml version="1.0" encoding="UTF-8"?>
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <!-- written by argus-perf to fetch the Druid target's jars -->
                  <groupId>io.argus.perf</groupId>
                  <artifactId>druid-target</artifactId>
                  <version>1</version>
                  <packaging>pom</packaging>
                  <dependencies>
                    <dependency>
                      <groupId>org.apache.druid</groupId>
                      <artifactId>druid-services</artifactId>
                      <version>%s</version>
                      <exclusions>
                        <exclusion><groupId>org.hyperic</groupId><artifactId>sigar</artifactId></exclusion>
                      </exclusions>
                    </dependency>
                  </dependencies>
                </project>
                """.formatted(version);
    }
}
