package io.argus.cluster.fetch;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;

/** A server's jars of one version, fetched once ({@link MavenFetch}) into {@code <home>/lib}. */
public abstract class CachedInstall {

    private final Path home;
    private final String version;

    protected CachedInstall(Path home, String version) {
        this.home = home.toAbsolutePath().normalize();
        this.version = version;
    }

    /** {@code <download cache>/<name>-<version>}. */
    protected static Path cacheHome(String name, String version) {
        return DownloadCache.root().resolve(name + "-" + version);
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

    /** Whether every fetch this install needs has finished. */
    public abstract boolean ready();

    /** Fetches the jars unless they are cached; returns the number of jars in {@link #lib()}. */
    public abstract int ensure(PrintStream log) throws IOException, InterruptedException;
}
