package io.argus.cluster.druid;

import io.argus.cluster.PinnedVersions;
import io.argus.cluster.fetch.Artifact;
import io.argus.cluster.fetch.CachedInstall;
import io.argus.cluster.fetch.MavenFetch;
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
 * run that starts a cluster does.
 *
 * <p>Extensions ({@code org.apache.druid.extensions:<name>}) go where Druid's distribution puts
 * them, {@code <home>/extensions/<name>}, each with the jars of its dependencies that {@code lib}
 * does not already hold; a Druid process loads those named in {@code druid.extensions.loadList}.
 */
public final class DruidInstall extends CachedInstall {
    static final List<String> EXCLUDED = List.of("org.hyperic:sigar");

    private final List<String> extensions;

    public DruidInstall(Path home, String version) {
        this(home, version, List.of());
    }

    /** @param extensions artifact ids under {@code org.apache.druid.extensions}, e.g. {@code druid-datasketches} */
    public DruidInstall(Path home, String version, List<String> extensions) {
        super(home, version);
        this.extensions = List.copyOf(extensions);
    }

    /** {@code druid.version} of the parent POM. */
    public static String pinnedVersion() {
        return PinnedVersions.druid();
    }

    /** {@code $ARGUS_PERF_CACHE/druid-<version>}, else {@code ~/.cache/argus-perf/druid-<version>}. */
    public static Path defaultHome(String version) {
        return cacheHome("druid", version);
    }

    /** Where the extensions live ({@code druid.extensions.directory}). */
    public Path extensionsDir() {
        return home().resolve("extensions");
    }

    /** The extensions this install fetches (the names for {@code druid.extensions.loadList}). */
    public List<String> extensions() {
        return extensions;
    }

    @Override
    public boolean ready() {
        return MavenFetch.complete(home())
                && extensions.stream().allMatch(e -> MavenFetch.complete(extensionsDir().resolve(e)));
    }

    @Override
    public int ensure(PrintStream log) throws IOException, InterruptedException {
        Artifact services = artifact("org.apache.druid", "druid-services");
        MavenFetch.of(home(), "", lib(), List.of(services))
                .once("Apache Druid " + version() + " (about 180 MB)", home(), version(), services.jar(), log,
                        into -> { });
        for (String extension : extensions) {
            Artifact ext = artifact("org.apache.druid.extensions", extension);
            Path dir = extensionsDir().resolve(extension);
            MavenFetch.of(home(), extension + ".", dir, List.of(ext))
                    .once("the Druid extension " + extension + " " + version(), dir, version(), ext.jar(), log,
                            this::dropJarsOfLib);
        }
        return MavenFetch.countJars(lib());
    }

    /** Druid's own layout: an extension folder holds only the jars {@code lib} lacks. */
    private void dropJarsOfLib(Path extensionDir) throws IOException {
        try (Stream<Path> jars = Files.list(extensionDir)) {
            for (Path jar : jars.toList()) {
                if (Files.exists(lib().resolve(jar.getFileName()))) {
                    Files.delete(jar);
                }
            }
        }
    }

    Artifact artifact(String groupId, String artifactId) {
        return new Artifact(groupId, artifactId, version(), EXCLUDED);
    }
}
