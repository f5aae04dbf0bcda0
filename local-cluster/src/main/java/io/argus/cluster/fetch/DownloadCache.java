package io.argus.cluster.fetch;

import java.nio.file.Path;

/** Where fetched third-party jars (Druid, Kafka) are cached between runs. */
public final class DownloadCache {

    private DownloadCache() {
    }

    /** {@code $ARGUS_PERF_CACHE}, else {@code ~/.cache/argus-perf} (the name predates the fleet tool; kept for caches). */
    public static Path root() {
        String cache = System.getenv("ARGUS_PERF_CACHE");
        return cache != null && !cache.isBlank() ? Path.of(cache)
                : Path.of(System.getProperty("user.home"), ".cache", "argus-perf");
    }
}
