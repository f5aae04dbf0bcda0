package io.argus.core.trace;

import java.util.concurrent.ThreadLocalRandom;

/** Random non-zero ids and their lowercase hex form. */
public final class TraceIds {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private TraceIds() {
    }

    public static long randomNonZero() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long id;
        do {
            id = random.nextLong();
        } while (id == 0);
        return id;
    }

    /** Writes 16 hex digits of {@code value} into {@code out} at {@code offset}. */
    public static void writeHex(long value, char[] out, int offset) {
        for (int i = 15; i >= 0; i--) {
            out[offset + i] = HEX[(int) (value & 0xF)];
            value >>>= 4;
        }
    }

    /** Writes 16 hex digits of {@code value} into {@code out} at {@code offset}, as ASCII bytes. */
    public static void writeHex(long value, byte[] out, int offset) {
        for (int i = 15; i >= 0; i--) {
            out[offset + i] = (byte) HEX[(int) (value & 0xF)];
            value >>>= 4;
        }
    }

    public static String toHex(long value) {
        char[] out = new char[16];
        writeHex(value, out, 0);
        return new String(out);
    }

    public static String toHex(long high, long low) {
        char[] out = new char[32];
        writeHex(high, out, 0);
        writeHex(low, out, 16);
        return new String(out);
    }

    /** Value of one hex digit, or -1. Uppercase is accepted only when {@code allowUpper}. */
    static int hexValue(char c, boolean allowUpper) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (allowUpper && c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }

    /** Parses {@code length} (at most 16) hex digits; returns false when one is not hex. */
    static boolean isHex(String s, int from, int length, boolean allowUpper) {
        for (int i = from; i < from + length; i++) {
            if (hexValue(s.charAt(i), allowUpper) < 0) {
                return false;
            }
        }
        return true;
    }

    /** Assumes {@link #isHex} held for the range. */
    static long parseHex(String s, int from, int length) {
        long value = 0;
        for (int i = from; i < from + length; i++) {
            value = (value << 4) | hexValue(s.charAt(i), true);
        }
        return value;
    }
}
