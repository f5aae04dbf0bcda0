package io.argus.perf.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Third-party jars (Druid's, Kafka's) fetched from Maven Central into a folder of the {@link DownloadCache}: a POM
 * whose dependencies are those jars is written, and a Maven subprocess copies them with their runtime dependencies
 * ({@code dependency:copy-dependencies}). A finished fetch leaves {@value #COMPLETE}, so an interrupted one is redone.
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
