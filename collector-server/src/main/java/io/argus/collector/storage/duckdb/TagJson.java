package io.argus.collector.storage.duckdb;

import io.argus.protocol.Tag;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Encodes span tags as a JSON object straight into UTF-8 bytes, reusing one buffer (writer thread only).
 * The read side parses the text back with Jackson.
 */
final class TagJson {
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    private byte[] buf = new byte[512];
    private int len;

    /** JSON object text of {@code tags}, e.g. {@code {"http.method":"GET"}}. */
    byte[] encode(List<Tag> tags) {
        len = 0;
        put((byte) '{');
        for (int i = 0, n = tags.size(); i < n; i++) {
            Tag tag = tags.get(i);
            if (i > 0) {
                put((byte) ',');
            }
            string(tag.getKey());
            put((byte) ':');
            string(tag.getValue());
        }
        put((byte) '}');
        return Arrays.copyOf(buf, len);
    }

    private void string(String s) {
        ensure(s.length() * 6 + 2);
        byte[] b = buf;
        int p = len;
        b[p++] = '"';
        for (int i = 0, n = s.length(); i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
                b[p++] = (byte) c;
            } else if (c == '"' || c == '\\') {
                b[p++] = '\\';
                b[p++] = (byte) c;
            } else if (c < 0x20) {
                b[p++] = '\\';
                switch (c) {
                    case '\n' -> b[p++] = 'n';
                    case '\r' -> b[p++] = 'r';
                    case '\t' -> b[p++] = 't';
                    default -> {
                        b[p++] = 'u';
                        b[p++] = '0';
                        b[p++] = '0';
                        b[p++] = HEX[c >> 4];
                        b[p++] = HEX[c & 0xF];
                    }
                }
            } else if (c < 0x800) {
                b[p++] = (byte) (0xC0 | (c >> 6));
                b[p++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                int cp = Character.toCodePoint(c, s.charAt(++i));
                b[p++] = (byte) (0xF0 | (cp >> 18));
                b[p++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                b[p++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                b[p++] = (byte) (0x80 | (cp & 0x3F));
            } else if (Character.isSurrogate(c)) {
                // a lone surrogate has no UTF-8 form; write U+FFFD like String.getBytes does
                b[p++] = (byte) 0xEF;
                b[p++] = (byte) 0xBF;
                b[p++] = (byte) 0xBD;
            } else {
                b[p++] = (byte) (0xE0 | (c >> 12));
                b[p++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                b[p++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        b[p++] = '"';
        len = p;
    }

    private void put(byte c) {
        ensure(1);
        buf[len++] = c;
    }

    private void ensure(int more) {
        if (len + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + more));
        }
    }
}
