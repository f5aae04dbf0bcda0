package io.argus.core.db;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The statement of a data store command for its span ({@code SET user:42 ?}): the plugin says which
 * arguments to show (keys, options) and which to hide (values, passed as null); this writes them with
 * each argument and the whole bounded, so a command with a 10 MB value or 100,000 keys gives a short
 * tag. Runs only for traced commands.
 */
public final class CommandStatement {

    /** Characters kept of one argument. */
    static final int MAX_ARG_CHARS = 64;
    /** Arguments written; the rest are counted. */
    public static final int MAX_ARGS = 32;
    /** Characters of a whole statement, from any source (other stores' plugins build theirs). */
    public static final int MAX_CHARS = 1024;
    static final String HIDDEN = "?";

    private CommandStatement() {
    }

    /**
     * @param args  the first arguments (a plugin need not collect more than {@link #MAX_ARGS})
     * @param count how many arguments the command has in all
     */
    public static String of(String operation, Object[] args, int count) {
        StringBuilder out = new StringBuilder(64).append(operation == null ? "" : operation);
        int shown = args == null ? 0 : Math.min(count, args.length);
        int written = 0;
        // room left for one more argument (at most MAX_ARG_CHARS + 4) and the count of the rest
        for (; written < shown && written < MAX_ARGS && out.length() < MAX_CHARS - MAX_ARG_CHARS - 32; written++) {
            out.append(' ');
            appendArgument(out, args[written]);
        }
        if (written < count) {
            out.append(" ... (").append(count - written).append(" more)");
        }
        return bounded(out.toString());
    }

    /** At most {@link #MAX_CHARS} characters, the cut marked with an ellipsis. */
    public static String bounded(String statement) {
        if (statement == null || statement.length() <= MAX_CHARS) {
            return statement;
        }
        return statement.substring(0, MAX_CHARS - 3) + "...";
    }

    static void appendArgument(StringBuilder out, Object arg) {
        if (arg == null || arg instanceof char[]) {
            out.append(HIDDEN);
        } else if (arg instanceof String) {
            appendText(out, (String) arg);
        } else if (arg instanceof byte[]) {
            byte[] bytes = (byte[]) arg;
            appendText(out, new String(bytes, 0, Math.min(bytes.length, MAX_ARG_CHARS * 4), StandardCharsets.UTF_8),
                    bytes.length > MAX_ARG_CHARS * 4);
        } else if (arg instanceof ByteBuffer) {
            ByteBuffer buffer = ((ByteBuffer) arg).duplicate();
            byte[] bytes = new byte[Math.min(buffer.remaining(), MAX_ARG_CHARS * 4)];
            boolean cut = buffer.remaining() > bytes.length;
            buffer.get(bytes);
            appendText(out, new String(bytes, StandardCharsets.UTF_8), cut);
        } else if (arg instanceof Number || arg instanceof Boolean || arg instanceof Character || arg instanceof Enum) {
            appendText(out, arg.toString());
        } else {
            String text;
            try {
                text = String.valueOf(arg);
            } catch (Throwable t) {
                text = HIDDEN;
            }
            appendText(out, text);
        }
    }

    private static void appendText(StringBuilder out, String text) {
        appendText(out, text, false);
    }

    /** Control characters as '.', at most {@link #MAX_ARG_CHARS}, and "..." where it was cut. */
    private static void appendText(StringBuilder out, String text, boolean cut) {
        int n = Math.min(text.length(), MAX_ARG_CHARS);
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            out.append(c < 0x20 || c == 0x7f || c == '\ufffd' ? '.' : c);
        }
        if (cut || text.length() > MAX_ARG_CHARS) {
            out.append("...");
        }
    }
}
