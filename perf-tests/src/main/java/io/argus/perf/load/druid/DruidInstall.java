package io.argus.perf.load.druid;

import io.argus.perf.harness.DownloadCache;
import io.argus.perf.load.OwnManifest;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Apache Druid's jars, fetched from Maven Central on first use and cached: {@code druid-services}
 * and its dependencies minus {@code org.hyperic:sigar} (not on Central; Druid runs without it),
 * copied by Maven into {@code <home>/lib}. The default build never downloads Druid; only a run
 * with {@code --target druid} does. A finished fetch leaves {@value #COMPLETE}, so an interrupted
 * one is redone.
 *
 * <p>Extensions ({@code org.apache.druid.extensions:<name>}) go where Druid's distribution puts
 * them, {@code <home>/extensions/<name>}, each with the jars of its dependencies that {@code lib}
 * does not already hold; a Druid process loads those named in {@code druid.extensions.loadList}.
 * Maven resolves into {@code -Dmaven.repo.local} when this JVM was given one.
 */
public final class DruidInstall {

    static final String COMPLETE = "lib.complete";

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
        return Files.isRegularFile(home.resolve(COMPLETE))
                && extensions.stream().allMatch(e -> Files.isRegularFile(extensionsDir().resolve(e).resolve(COMPLETE)));
    }

    /** Fetches the jars unless they are cached; returns the number of jars in {@code lib}. */
    public int ensure(PrintStream log) throws IOException, InterruptedException {
        if (!Files.isRegularFile(home.resolve(COMPLETE))) {
            fetch(log);
        }
        for (String extension : extensions) {
            if (!Files.isRegularFile(extensionsDir().resolve(extension).resolve(COMPLETE))) {
                fetchExtension(extension, log);
            }
        }
        try (Stream<Path> jars = Files.list(lib())) {
            return (int) jars.filter(p -> p.toString().endsWith(".jar")).count();
        }
    }

    private void fetch(PrintStream log) throws IOException, InterruptedException {
        Files.createDirectories(home);
        Path pom = home.resolve("pom.xml");
        Files.writeString(pom, pom("org.apache.druid", "druid-services", version), StandardCharsets.UTF_8);
        log.println("[argus-perf] fetching Apache Druid " + version + " from Maven Central into " + lib()
                + " (once; about 180 MB)");
        copyDependencies(pom, lib(), home.resolve("fetch.log"));
        if (!Files.isRegularFile(lib().resolve("druid-services-" + version + ".jar"))) {
            throw new IOException("Maven finished but " + lib() + " holds no druid-services-" + version + ".jar");
        }
        Files.writeString(home.resolve(COMPLETE), version + System.lineSeparator());
    }

    /** The extension's jar and those of its dependencies that {@code lib} lacks (Druid's own layout). */
    private void fetchExtension(String extension, PrintStream log) throws IOException, InterruptedException {
        Path dir = extensionsDir().resolve(extension);
        Files.createDirectories(dir);
        Path pom = home.resolve(extension + ".pom.xml");
        Files.writeString(pom, pom("org.apache.druid.extensions", extension, version), StandardCharsets.UTF_8);
        log.println("[argus-perf] fetching the Druid extension " + extension + " " + version + " into " + dir);
        copyDependencies(pom, dir, home.resolve(extension + ".fetch.log"));
        try (Stream<Path> jars = Files.list(dir)) {
            for (Path jar : jars.toList()) {
                if (Files.exists(lib().resolve(jar.getFileName()))) {
                    Files.delete(jar);
                }
            }
        }
        if (!Files.isRegularFile(dir.resolve(extension + "-" + version + ".jar"))) {
            throw new IOException("Maven finished but " + dir + " holds no " + extension + "-" + version + ".jar");
        }
        Files.writeString(dir.resolve(COMPLETE), version + System.lineSeparator());
    }

    private static void copyDependencies(Path pom, Path into, Path out) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(maven(), "-B", "-q", "-f", pom.toString()));
        String repo = System.getProperty("maven.repo.local");
        if (repo != null && !repo.isBlank()) {
            cmd.add("-Dmaven.repo.local=" + repo);
        }
        cmd.add("org.apache.maven.plugins:maven-dependency-plugin:"
                + OwnManifest.attribute("Argus-Dependency-Plugin-Version", "3.9.0") + ":copy-dependencies");
        cmd.add("-DoutputDirectory=" + into);
        cmd.add("-DincludeScope=runtime");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        if (!p.waitFor(30, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IOException("fetching " + pom.getFileName() + " took more than 30 minutes; see " + out);
        }
        if (p.exitValue() != 0) {
            throw new IOException("fetching " + pom.getFileName() + " failed (mvn exit " + p.exitValue() + "); see "
                    + out + ":\n" + tail(out));
        }
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
