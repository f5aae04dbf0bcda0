package io.argus.perf.harness.proc;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The long counters a HotSpot JVM publishes in its {@code hsperfdata_<user>/<pid>} file (what
 * {@code jstat} reads), read without attaching to the process, so that reading them costs the
 * target nothing. Absent when the JVM runs with {@code -XX:-UsePerfData} or
 * {@code -XX:+PerfDisableSharedMem}.
 */
public final class HotSpotCounters {

    /** Classes loaded so far from class files, the JDK's own included. */
    public static final String LOADED_CLASSES = "java.cls.loadedClasses";
    /** Classes loaded so far from the class-data sharing archive. */
    public static final String SHARED_LOADED_CLASSES = "java.cls.sharedLoadedClasses";

    private static final int MAGIC = 0xcafec0c0;
    private static final byte TYPE_LONG = 'J';

    private HotSpotCounters() {
    }

    /** Every class loaded so far, from class files and from the CDS archive; null when unpublished. */
    public static Long allLoadedClasses(long pid) {
        Map<String, Long> counters = read(pid);
        Long loaded = counters.get(LOADED_CLASSES);
        return loaded == null ? null : loaded + counters.getOrDefault(SHARED_LOADED_CLASSES, 0L);
    }

    /** The counters of {@code pid}, or an empty map when its file is absent or unreadable. */
    public static Map<String, Long> read(long pid) {
        Path file = Path.of(System.getProperty("java.io.tmpdir"), "hsperfdata_" + System.getProperty("user.name"),
                Long.toString(pid));
        try {
            return parse(ByteBuffer.wrap(Files.readAllBytes(file)));
        } catch (IOException | RuntimeException e) {
            return Map.of();
        }
    }

    /** Parses the PerfData layout: a 32-byte prologue, then entries of a name and a value each. */
    static Map<String, Long> parse(ByteBuffer buffer) {
        Map<String, Long> counters = new HashMap<>();
        if (buffer.getInt(0) != MAGIC) {
            return counters;
        }
        buffer.order(buffer.get(4) == 0 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
        int entryOffset = buffer.getInt(24);
        int entries = buffer.getInt(28);
        int at = entryOffset;
        for (int i = 0; i < entries && at + 20 <= buffer.limit(); i++) {
            int length = buffer.getInt(at);
            if (length <= 0) {
                break;
            }
            int nameOffset = buffer.getInt(at + 4);
            int vectorLength = buffer.getInt(at + 8);
            byte type = buffer.get(at + 12);
            int dataOffset = buffer.getInt(at + 16);
            if (type == TYPE_LONG && vectorLength == 0) {
                counters.put(name(buffer, at + nameOffset), buffer.getLong(at + dataOffset));
            }
            at += length;
        }
        return counters;
    }

    private static String name(ByteBuffer buffer, int start) {
        int end = start;
        while (end < buffer.limit() && buffer.get(end) != 0) {
            end++;
        }
        byte[] bytes = new byte[end - start];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = buffer.get(start + i);
        }
        return new String(bytes, StandardCharsets.US_ASCII);
    }
}
