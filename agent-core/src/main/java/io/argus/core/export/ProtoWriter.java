package io.argus.core.export;

import java.util.Arrays;

/**
 * Writes protocol buffers wire format straight into a byte array: varints, fixed64, strings and
 * nested messages. The agent needs nothing more, so it carries no protobuf runtime (which would
 * also touch sun.misc.Unsafe and print warnings on recent JDKs). Frames are a 4-byte big-endian
 * length followed by one {@code Frame} message; the collector decodes them with generated classes.
 */
final class ProtoWriter {

    private static final int WIRE_VARINT = 0;
    private static final int WIRE_FIXED64 = 1;
    private static final int WIRE_LENGTH_DELIMITED = 2;

    private byte[] buffer;
    private int position;

    ProtoWriter(int initialCapacity) {
        buffer = new byte[Math.max(64, initialCapacity)];
    }

    /** Starts a frame: reserves the 4-byte length prefix. */
    void beginFrame() {
        position = 0;
        ensure(4);
        position = 4;
    }

    /** Fills in the length prefix and returns a copy of the frame. */
    byte[] endFrame() {
        int length = position - 4;
        buffer[0] = (byte) (length >>> 24);
        buffer[1] = (byte) (length >>> 16);
        buffer[2] = (byte) (length >>> 8);
        buffer[3] = (byte) length;
        return Arrays.copyOf(buffer, position);
    }

    /** Opens a nested message field; pass the result to {@link #endMessage}. */
    int beginMessage(int field) {
        writeTag(field, WIRE_LENGTH_DELIMITED);
        ensure(1);
        return position++;
    }

    /** Closes a nested message: writes its length, moving the body if the length needs more than one byte. */
    void endMessage(int mark) {
        int length = position - mark - 1;
        int lengthSize = varintSize(length);
        if (lengthSize > 1) {
            ensure(lengthSize - 1);
            System.arraycopy(buffer, mark + 1, buffer, mark + lengthSize, length);
            position += lengthSize - 1;
        }
        int p = mark;
        long v = length;
        while ((v & ~0x7FL) != 0) {
            buffer[p++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        buffer[p] = (byte) v;
    }

    void writeUInt64(int field, long value) {
        if (value != 0) {
            writeTag(field, WIRE_VARINT);
            writeVarint(value);
        }
    }

    void writeBool(int field, boolean value) {
        writeUInt64(field, value ? 1 : 0);
    }

    void writeInt32(int field, int value) {
        writeUInt64(field, value);
    }

    void writeFixed64(int field, long value) {
        if (value != 0) {
            writeTag(field, WIRE_FIXED64);
            ensure(8);
            for (int i = 0; i < 8; i++) {
                buffer[position++] = (byte) (value >>> (8 * i));
            }
        }
    }

    void writeDouble(int field, double value) {
        long bits = Double.doubleToRawLongBits(value);
        if (bits != 0) {
            writeTag(field, WIRE_FIXED64);
            ensure(8);
            for (int i = 0; i < 8; i++) {
                buffer[position++] = (byte) (bits >>> (8 * i));
            }
        }
    }

    void writeString(int field, String value) {
        if (value == null || value.isEmpty()) {
            return;
        }
        beginString(field, utf8Length(value));
        writeUtf8(value);
    }

    /**
     * A string field holding {@code first}, {@code separator} and {@code second} (an ASCII separator): the
     * bytes of {@code first + separator + second}, without building that string.
     */
    void writeJoined(int field, String first, char separator, String second) {
        beginString(field, utf8Length(first) + 1 + utf8Length(second));
        writeUtf8(first);
        buffer[position++] = (byte) separator;
        writeUtf8(second);
    }

    /** A string field holding {@code text}, {@code separator} and the decimal digits of {@code number}. */
    void writeWithNumber(int field, String text, char separator, int number) {
        int numberLength = decimalLength(number);
        beginString(field, utf8Length(text) + 1 + numberLength);
        writeUtf8(text);
        buffer[position++] = (byte) separator;
        writeDecimal(number, numberLength);
    }

    /** A string field holding the decimal digits of {@code number}, as {@code Integer.toString} writes them. */
    void writeDecimalString(int field, int number) {
        int length = decimalLength(number);
        beginString(field, length);
        writeDecimal(number, length);
    }

    /** The tag and length of a string field, and room for its {@code length} bytes. */
    private void beginString(int field, int length) {
        writeTag(field, WIRE_LENGTH_DELIMITED);
        writeVarint(length);
        ensure(length);
    }

    static int decimalLength(int number) {
        long n = number;
        int length = 1;
        if (n < 0) {
            length++;
            n = -n;
        }
        while (n >= 10) {
            length++;
            n /= 10;
        }
        return length;
    }

    private void writeDecimal(int number, int length) {
        long n = number;
        int end = position + length;
        if (n < 0) {
            buffer[position] = '-';
            n = -n;
        }
        int p = end;
        do {
            buffer[--p] = (byte) ('0' + (int) (n % 10));
            n /= 10;
        } while (n != 0);
        position = end;
    }

    /** A packed repeated int64 field. */
    void writePackedInt64(int field, long[] values, int count) {
        if (count == 0) {
            return;
        }
        int mark = beginMessage(field);
        for (int i = 0; i < count; i++) {
            writeVarint(values[i]);
        }
        endMessage(mark);
    }

    private void writeTag(int field, int wireType) {
        writeVarint((field << 3) | wireType);
    }

    private void writeVarint(long value) {
        ensure(10);
        while ((value & ~0x7FL) != 0) {
            buffer[position++] = (byte) ((value & 0x7F) | 0x80);
            value >>>= 7;
        }
        buffer[position++] = (byte) value;
    }

    static int varintSize(long value) {
        int size = 1;
        while ((value & ~0x7FL) != 0) {
            size++;
            value >>>= 7;
        }
        return size;
    }

    static int utf8Length(String s) {
        int length = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                length++;
            } else if (c < 0x800) {
                length += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                length += 4;
                i++;
            } else if (Character.isSurrogate(c)) {
                length++;
            } else {
                length += 3;
            }
        }
        return length;
    }

    private void writeUtf8(String s) {
        byte[] b = buffer;
        int p = position;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                b[p++] = (byte) c;
            } else if (c < 0x800) {
                b[p++] = (byte) (0xC0 | (c >>> 6));
                b[p++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                int cp = Character.toCodePoint(c, s.charAt(++i));
                b[p++] = (byte) (0xF0 | (cp >>> 18));
                b[p++] = (byte) (0x80 | ((cp >>> 12) & 0x3F));
                b[p++] = (byte) (0x80 | ((cp >>> 6) & 0x3F));
                b[p++] = (byte) (0x80 | (cp & 0x3F));
            } else if (Character.isSurrogate(c)) {
                b[p++] = (byte) '?';
            } else {
                b[p++] = (byte) (0xE0 | (c >>> 12));
                b[p++] = (byte) (0x80 | ((c >>> 6) & 0x3F));
                b[p++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        position = p;
    }

    private void ensure(int more) {
        if (position + more > buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, position + more));
        }
    }
}
