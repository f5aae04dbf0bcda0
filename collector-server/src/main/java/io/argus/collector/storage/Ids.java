package io.argus.collector.storage;

/** Hex forms of trace ids (32 lowercase hex chars) and span ids (16 lowercase hex chars). */
public final class Ids {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private Ids() {
    }

    public static String spanIdHex(long id) {
        char[] out = new char[16];
        write(id, out, 0);
        return new String(out);
    }

    public static String traceIdHex(long high, long low) {
        char[] out = new char[32];
        write(high, out, 0);
        write(low, out, 16);
        return new String(out);
    }

    private static void write(long v, char[] out, int at) {
        for (int i = 15; i >= 0; i--) {
            out[at + i] = HEX[(int) (v & 0xF)];
            v >>>= 4;
        }
    }

    /**
     * Parses a 32-char hex trace id (either case).
     *
     * @return {high, low}
     * @throws IllegalArgumentException if {@code hex} is not exactly 32 hex digits
     */
    public static long[] parseTraceId(String hex) {
        if (hex == null || hex.length() != 32) {
            throw new IllegalArgumentException("trace id must be 32 hex characters");
        }
        return new long[] {parseHex(hex, 0), parseHex(hex, 16)};
    }

    /** Parses a 16-char hex span id (either case). */
    public static long parseSpanId(String hex) {
        if (hex == null || hex.length() != 16) {
            throw new IllegalArgumentException("span id must be 16 hex characters");
        }
        return parseHex(hex, 0);
    }

    private static long parseHex(String s, int from) {
        long v = 0;
        for (int i = from; i < from + 16; i++) {
            int d = Character.digit(s.charAt(i), 16);
            if (d < 0) {
                throw new IllegalArgumentException("not a hex character: '" + s.charAt(i) + "'");
            }
            v = (v << 4) | d;
        }
        return v;
    }
}
