package io.argus.collector.storage.duckdb;

/**
 * The embedded database's engine settings.
 *
 * @param threads        DuckDB's {@code threads}: 1 runs every statement on the thread that issued it, the cheapest
 *                       for ingest on a small machine; more let large queries scan in parallel, at some CPU per span
 * @param memoryLimitMiB DuckDB's {@code memory_limit} in MiB: beyond it large queries spill to the data folder's
 *                       {@code tmp} or fail with an out-of-memory error; the collector's JVM heap is not part of it
 */
public record DuckDbSettings(int threads, int memoryLimitMiB) {

    public static final int MAX_THREADS = 256;
    public static final int MIN_MEMORY_MIB = 64;
    public static final int MAX_MEMORY_MIB = 1 << 20;
    /** No worker threads, and 2 GiB: a collector that shares its machine with the applications it watches. */
    public static final DuckDbSettings DEFAULTS = new DuckDbSettings(1, 2048);

    public DuckDbSettings {
        if (threads < 1 || threads > MAX_THREADS) {
            throw new IllegalArgumentException("storage threads must be 1 to " + MAX_THREADS + ", got " + threads);
        }
        if (memoryLimitMiB < MIN_MEMORY_MIB || memoryLimitMiB > MAX_MEMORY_MIB) {
            throw new IllegalArgumentException("storage memory must be " + MIN_MEMORY_MIB + " to " + MAX_MEMORY_MIB
                    + " MiB, got " + memoryLimitMiB);
        }
    }

    public DuckDbSettings withThreads(int threads) {
        return new DuckDbSettings(threads, memoryLimitMiB);
    }

    public DuckDbSettings withMemoryLimitMiB(int memoryLimitMiB) {
        return new DuckDbSettings(threads, memoryLimitMiB);
    }
}
