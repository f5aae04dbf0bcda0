package io.argus.core.trace;

import java.util.concurrent.ThreadLocalRandom;

/** Random non-zero ids and their lowercase hex form. */
public final class TraceIds {

    private static final char[] HEX = "0123456789abcdef".toCharArray();
    /** Digit values of the ASCII characters, -1 for the others: lowercase hex only, and either case. */
    private static final byte[] HEX_LOWER = hexValues(false);
    private static final byte[] HEX_EITHER = hexValues(true);

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

    /**
     * Value of one hex digit, or -1. Uppercase is accepted only when {@code allowUpper}. A table look-up: an inbound
     * {@code traceparent} is checked and read digit by digit, about 150 digits per traced request.
     */
    static int hexValue(char c, boolean allowUpper) {
        if (c >= 128) {
            return -1;
        }
        return (allowUpper ? HEX_EITHER : HEX_LOWER)[c];
    }

    private static byte[] hexValues(boolean allowUpper) {
        byte[] values = new byte[128];
        java.util.Arrays.fill(values, (byte) -1);
        for (int c = '0'; c <= '9'; c++) {
            values[c] = (byte) (c - '0');
        }
        for (int c = 'a'; c <= 'f'; c++) {
            values[c] = (byte) (c - 'a' + 10);
            if (allowUpper) {
                values[c - 'a' + 'A'] = (byte) (c - 'a' + 10);
            }
        }
        return values;
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
