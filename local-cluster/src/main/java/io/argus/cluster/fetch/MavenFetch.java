package io.argus.cluster.fetch;

import io.argus.cluster.PinnedVersions;
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
 * Third-party jars (Druid's, Kafka's) fetched from Maven Central into a folder of the {@link DownloadCache}: a POM
 * whose dependencies are those jars is written, and a Maven subprocess copies them with their runtime dependencies
 * ({@code dependency:copy-dependencies}). A finished fetch leaves {@value #COMPLETE}, so an interrupted one is redone.
 * {@link #of} and {@link #once} are the whole fetch as Druid's and Kafka's installs use it.
 * Maven resolves into the build's own local repository when this JVM was told it ({@code argus.maven.repo.local} or
 * {@code maven.repo.local}), never a shared one behind its back.
 *
 * @param pom     the POM's text
 * @param pomFile where the POM is written
 * @param into    where the jars go
 * @param log     Maven's output
 */
public record MavenFetch(String pom, Path pomFile, Path into, Path log) {

    /** The marker of a finished fetch. */
    public static final String COMPLETE = "lib.complete";
    private static final long TIMEOUT_MINUTES = 30;

    /** Post-processing of the fetched folder before it is checked and marked complete. */
    @FunctionalInterface
    public interface AfterCopy {
        void apply(Path into) throws IOException;
    }

    /** A fetch of {@code artifacts} into {@code into}, its POM and log named {@code <name>pom.xml} in {@code home}. */
    public static MavenFetch of(Path home, String name, Path into, List<Artifact> artifacts) {
        return new MavenFetch(pom(artifacts), home.resolve(name + "pom.xml"), into, home.resolve(name + "fetch.log"));
    }

    /** A POM whose dependencies are {@code artifacts}. */
    public static String pom(List<Artifact> artifacts) {
        StringBuilder deps = new StringBuilder();
        artifacts.forEach(a -> deps.append(a.dependencyXml()));
        return """
                <?xml version="1.0" encoding="UTF-8"?>
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <!-- written by Argus to fetch these jars with their runtime dependencies -->
                  <groupId>io.argus.cluster</groupId>
                  <artifactId>fetch</artifactId>
                  <version>1</version>
                  <packaging>pom</packaging>
                  <dependencies>
                %s  </dependencies>
                </project>
                """.formatted(deps);
    }

    /**
     * Unless {@code markerDir} marks a finished fetch: announces it, copies, applies {@code after}, checks that
     * {@code expectedJar} arrived and marks {@code markerDir} complete with {@code version}.
     */
    public void once(String what, Path markerDir, String version, String expectedJar, PrintStream log,
                     AfterCopy after) throws IOException, InterruptedException {
        if (complete(markerDir)) {
            return;
        }
        String plugin = PinnedVersions.dependencyPlugin();
        log.println("[argus] fetching " + what + " from Maven Central into " + into + " (once): "
                + String.join(" ", command(plugin)));
        copy(plugin);
        after.apply(into);
        expect(expectedJar);
        markComplete(markerDir, version);
    }

    /** The number of jars in {@code dir}. */
    public static int countJars(Path dir) throws IOException {
        try (Stream<Path> jars = Files.list(dir)) {
            return (int) jars.filter(p -> p.toString().endsWith(".jar")).count();
        }
    }

    /** Whether the fetch marked in {@code dir} finished. */
    public static boolean complete(Path dir) {
        return Files.isRegularFile(dir.resolve(COMPLETE));
    }

    /** Marks the fetch in {@code dir} finished. */
    public static void markComplete(Path dir, String version) throws IOException {
        Files.writeString(dir.resolve(COMPLETE), version + System.lineSeparator());
    }

    /** Writes the POM and has Maven copy its dependencies into {@link #into}. */
    public void copy(String pluginVersion) throws IOException, InterruptedException {
        Files.createDirectories(pomFile.getParent());
        Files.createDirectories(into);
        Files.writeString(pomFile, pom, StandardCharsets.UTF_8);
        Process p = new ProcessBuilder(command(pluginVersion)).redirectErrorStream(true).redirectOutput(log.toFile())
                .start();
        if (!p.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IOException("fetching " + pomFile.getFileName() + " took more than " + TIMEOUT_MINUTES
                    + " minutes; see " + log);
        }
        if (p.exitValue() != 0) {
            throw new IOException("fetching " + pomFile.getFileName() + " failed (mvn exit " + p.exitValue()
                    + "); see " + log + ":\n" + tail());
        }
    }

    /** The Maven command line (also printed where a fetch is announced). */
    public List<String> command(String pluginVersion) {
        List<String> cmd = new ArrayList<>(List.of(maven(), "-B", "-q", "-f", pomFile.toString()));
        String repo = System.getProperty("argus.maven.repo.local", System.getProperty("maven.repo.local"));
        if (repo != null && !repo.isBlank()) {
            cmd.add("-Dmaven.repo.local=" + repo);
        }
        cmd.add("org.apache.maven.plugins:maven-dependency-plugin:" + pluginVersion + ":copy-dependencies");
        cmd.add("-DoutputDirectory=" + into);
        cmd.add("-DincludeScope=runtime");
        return cmd;
    }

    /** Fails unless Maven brought {@code jar} into {@link #into}. */
    public void expect(String jar) throws IOException {
        if (!Files.isRegularFile(into.resolve(jar))) {
            throw new IOException("Maven finished but " + into + " holds no " + jar);
        }
    }

    /** {@code $MAVEN_CMD}, else mvn from the PATH. */
    private static String maven() {
        String m = System.getenv("MAVEN_CMD");
        return m != null && !m.isBlank() ? m : "mvn";
    }

    private String tail() throws IOException {
        List<String> lines = Files.readAllLines(log);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    }
}
