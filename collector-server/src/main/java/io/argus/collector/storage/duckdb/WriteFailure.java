package io.argus.collector.storage.duckdb;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

/**
 * What a failed write cycle says about its cause. A failure of the environment (the disk is full or unwritable,
 * memory ran out) goes away when the environment recovers, so the cycle is written again until it succeeds; anything
 * else may be caused by the batches themselves, and a cycle that keeps failing for such a reason is dropped so that
 * it cannot hold up the store for good.
 */
final class WriteFailure {
    /** Free space the data directory must take for a failure not to count as the disk's. */
    static final int PROBE_BYTES = 1 << 20;
    private static final String[] ENVIRONMENT = {"io error", "no space left", "could not write", "disk quota",
        "read-only file system", "out of memory", "file too large", "could not open", "could not truncate",
        "could not fsync", "input/output error"};

    private WriteFailure() {
    }

    /** One line naming the cause: the deepest message, without DuckDB's multi-line context. */
    static String describe(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = String.valueOf(root.getMessage() == null ? root : root.getMessage());
        int newline = message.indexOf('\n');
        return newline > 0 ? message.substring(0, newline) : message;
    }

    /**
     * True when the disk or the machine is at fault: the error says so, or the data directory cannot take
     * {@value #PROBE_BYTES} more bytes right now.
     */
    static boolean environmental(Throwable t, Path dataDir) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            String m = String.valueOf(c.getMessage()).toLowerCase(Locale.ROOT);
            for (String marker : ENVIRONMENT) {
                if (m.contains(marker)) {
                    return true;
                }
            }
        }
        return !canWrite(dataDir);
    }

    /** Writes, syncs and deletes a probe file of {@value #PROBE_BYTES} bytes in {@code dir}. */
    static boolean canWrite(Path dir) {
        Path probe = dir.resolve(".argus-write-probe");
        try (FileChannel ch = FileChannel.open(probe, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer block = ByteBuffer.allocate(64 * 1024);
            for (int written = 0; written < PROBE_BYTES; written += block.capacity()) {
                block.clear();
                while (block.hasRemaining()) {
                    ch.write(block);
                }
            }
            ch.force(false);
            return true;
        } catch (IOException e) {
            return false;
        } finally {
            try {
                Files.deleteIfExists(probe);
            } catch (IOException ignored) {
                // the next probe truncates it
            }
        }
    }
}
