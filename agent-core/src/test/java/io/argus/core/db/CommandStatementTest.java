package io.argus.core.db;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

class CommandStatementTest {

    @Test
    void showsKeptArgumentsAndHidesValues() {
        assertThat(CommandStatement.of("SET", new Object[] {"user:42", null, "EX", 10L}, 4))
                .isEqualTo("SET user:42 ? EX 10");
        assertThat(CommandStatement.of("GET", new Object[] {"k".getBytes(StandardCharsets.UTF_8)}, 1))
                .isEqualTo("GET k");
        assertThat(CommandStatement.of("GET", new Object[] {ByteBuffer.wrap("k2".getBytes(StandardCharsets.UTF_8))}, 1))
                .isEqualTo("GET k2");
        assertThat(CommandStatement.of("AUTH", new Object[] {"default".toCharArray()}, 1)).isEqualTo("AUTH ?");
        assertThat(CommandStatement.of("PING", null, 0)).isEqualTo("PING");
    }

    @Test
    void boundsHugeArgumentsAndLongArgumentLists() {
        char[] huge = new char[10_000_000];
        Arrays.fill(huge, 'x');
        String statement = CommandStatement.of("GET", new Object[] {new String(huge)}, 1);
        assertThat(statement).hasSize("GET ".length() + CommandStatement.MAX_ARG_CHARS + 3).endsWith("x...");

        byte[] bytes = new byte[5_000_000];
        Arrays.fill(bytes, (byte) 'y');
        assertThat(CommandStatement.of("GET", new Object[] {bytes}, 1)).endsWith("y...")
                .hasSize("GET ".length() + CommandStatement.MAX_ARG_CHARS + 3);

        Object[] keys = new Object[100_000];
        Arrays.fill(keys, "key-with-a-long-name-0123456789-0123456789-0123456789");
        String many = CommandStatement.of("MGET", keys, keys.length);
        assertThat(many.length()).isLessThanOrEqualTo(CommandStatement.MAX_CHARS);
        assertThat(many).startsWith("MGET key-with").contains("more)");
        // a plugin passes the first arguments only, with the full count
        assertThat(CommandStatement.of("DEL", new Object[] {"a", "b"}, 40_000)).isEqualTo("DEL a b ... (39998 more)");
    }

    @Test
    void controlCharactersAreMasked() {
        assertThat(CommandStatement.of("GET", new Object[] {"a\r\nb\u0000"}, 1)).isEqualTo("GET a..b.");
    }

    @Test
    void statementsFromPluginsAreBounded() {
        char[] long_ = new char[5000];
        Arrays.fill(long_, 'a');
        assertThat(CommandStatement.bounded(new String(long_))).hasSize(CommandStatement.MAX_CHARS).endsWith("...");
        assertThat(CommandStatement.bounded("short")).isEqualTo("short");
    }
}
