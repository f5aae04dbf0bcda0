package io.argus.core.trace;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TraceIdsTest {

    @Test
    void hexValueOfEveryCharacter() {
        for (int i = 0; i <= Character.MAX_VALUE; i++) {
            char c = (char) i;
            int lower = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
            int either = lower >= 0 ? lower : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
            assertThat(TraceIds.hexValue(c, false)).as("U+%04X", i).isEqualTo(lower);
            assertThat(TraceIds.hexValue(c, true)).as("U+%04X", i).isEqualTo(either);
        }
    }

    @Test
    void parsesWhatItWrites() {
        long[] values = {1, 0xf, 0x0af7651916cd43ddL, -1, Long.MIN_VALUE};
        for (long value : values) {
            String hex = TraceIds.toHex(value);
            assertThat(TraceIds.isHex(hex, 0, 16, false)).isTrue();
            assertThat(TraceIds.parseHex(hex, 0, 16)).isEqualTo(value);
            assertThat(TraceIds.parseHex(hex.toUpperCase(), 0, 16)).isEqualTo(value);
        }
        assertThat(TraceIds.isHex("0AF7", 0, 4, false)).isFalse();
        assertThat(TraceIds.isHex("0AF7", 0, 4, true)).isTrue();
        assertThat(TraceIds.isHex("0ag7", 0, 4, true)).isFalse();
    }
}
