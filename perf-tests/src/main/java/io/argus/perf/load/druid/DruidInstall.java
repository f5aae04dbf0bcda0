package io.argus.perf.load.druid;

import io.argus.perf.harness.DownloadCache;
import io.argus.perf.harness.MavenFetch;
import io.argus.perf.load.OwnManifest;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Apache Druid's jars, fetched from Maven Central on first use and cached: {@code druid-services}
 * and its dependencies minus {@code org.hyperic:sigar} (not on Central; Druid runs without it),
 * copied by Maven into {@code <home>/lib} ({@link MavenFetch}). The default build never downloads Druid; only a
 * run with {@code --target druid} does.
 *
 * <p>Extensions ({@code org.apache.druid.extensions:<name>}) go where Druid's distribution puts
 * them, {@code <home>/extensions/<name>}, each with the jars of its dependencies that {@code lib}
 * does not already hold; a Druid process loads those named in {@code druid.extensions.loadList}.
 */
public final class DruidInstall {

    private final Path home;
    private final String version;
    private final List<String> extensions;

    public DruidInstall(Path home, String version) {
        this(home, version, List.of());
    }

    /** @param extensions artifact ids under {@code org.apache.druid.extensions}, e.g. {@code druid-datasketches} */
    public DruidInstall(Path home, String version, List<String> extensions) {
        this.home = home.toAbsolutePath().normalize();
        this.version = version;
        this.extensions = List.copyOf(extensions);
    }

    /** The version pinned in the parent POM (carried in the suite's manifest). */
    public static String pinnedVersion() {
        return OwnManifest.attribute("Argus-Druid-Version", "33.0.0");
    }

    /** {@code $ARGUS_PERF_CACHE/druid-<version>}, else {@code ~/.cache/argus-perf/druid-<version>}. */
    public static Path defaultHome(String version) {
        return DownloadCache.root().resolve("druid-" + version);
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

    /** Where the extensions live ({@code druid.extensions.directory}). */
    public Path extensionsDir() {
        return home.resolve("extensions");
    }

    /** The extensions this install fetches (the names for {@code druid.extensions.loadList}). */
    public List<String> extensions() {
        return extensions;
    }

    public boolean ready() {
        return MavenFetch.complete(home)
                && extensions.stream().allMatch(e -> MavenFetch.complete(extensionsDir().resolve(e)));
    }

    /** Fetches the jars unless they are cached; returns the number of jars in {@code lib}. */
    public int ensure(PrintStream log) throws IOException, InterruptedException {
        if (!MavenFetch.complete(home)) {
            fetch(log);
        }
        for (String extension : extensions) {
            if (!MavenFetch.complete(extensionsDir().resolve(extension))) {
                fetchExtension(extension, log);
            }
        }
        try (Stream<Path> jars = Files.list(lib())) {
            return (int) jars.filter(p -> p.toString().endsWith(".jar")).count();
        }
    }

    private void fetch(PrintStream log) throws IOException, InterruptedException {
        log.println("[argus-perf] fetching Apache Druid " + version + " from Maven Central into " + lib()
                + " (once; about 180 MB)");
        MavenFetch fetch = new MavenFetch(pom("org.apache.druid", "druid-services", version), home.resolve("pom.xml"),
                lib(), home.resolve("fetch.log"));
        fetch.copy(pluginVersion());
        fetch.expect("druid-services-" + version + ".jar");
        MavenFetch.markComplete(home, version);
    }

    /** The extension's jar and those of its dependencies that {@code lib} lacks (Druid's own layout). */
    private void fetchExtension(String extension, PrintStream log) throws IOException, InterruptedException {
        Path dir = extensionsDir().resolve(extension);
        log.println("[argus-perf] fetching the Druid extension " + extension + " " + version + " into " + dir);
        MavenFetch fetch = new MavenFetch(pom("org.apache.druid.extensions", extension, version),
                home.resolve(extension + ".pom.xml"), dir, home.resolve(extension + ".fetch.log"));
        fetch.copy(pluginVersion());
        try (Stream<Path> jars = Files.list(dir)) {
            for (Path jar : jars.toList()) {
                if (Files.exists(lib().resolve(jar.getFileName()))) {
                    Files.delete(jar);
                }
            }
        }
        fetch.expect(extension + "-" + version + ".jar");
        MavenFetch.markComplete(dir, version);
    }

    private static String pluginVersion() {
        return OwnManifest.attribute("Argus-Dependency-Plugin-Version", "3.9.0");
    }

    static String pom(String version) {
        return pom("org.apache.druid", "druid-services", version);
    }

    /** A POM whose only dependency is {@code groupId:artifactId:version}, without sigar. */
    static String pom(String groupId, String artifactId, String version) {
        return """
                <?xml version="1.0" encoding="UTF-8"?>
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <!-- written by argus-perf to fetch Druid's jars -->
                  <groupId>io.argus.perf</groupId>
                  <artifactId>druid-target</artifactId>
                  <version>1</version>
                  <packaging>pom</packaging>
                  <dependencies>
                    <dependency>
                      <groupId>%s</groupId>
                      <artifactId>%s</artifactId>
                      <version>%s</version>
                      <exclusions>
                        <exclusion><groupId>org.hyperic</groupId><artifactId>sigar</artifactId></exclusion>
                      </exclusions>
                    </dependency>
                  </dependencies>
                </project>
                """.formatted(groupId, artifactId, version);
    }
}
