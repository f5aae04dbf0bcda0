package io.argus.core.db;

/**
 * The statement type of a SQL text, for the database metrics: one of a few interned constants,
 * found by reading the first keyword (skipping comments and opening parentheses; for
 * {@code WITH ...} the first top-level SELECT/INSERT/UPDATE/DELETE after the common table
 * expressions). Allocates nothing.
 */
public final class SqlTypes {

    public static final String SELECT = "SELECT";
    public static final String INSERT = "INSERT";
    public static final String UPDATE = "UPDATE";
    public static final String DELETE = "DELETE";
    public static final String OTHER = "OTHER";

    /** How far into the text a WITH statement is searched for its main keyword. */
    private static final int MAX_SCAN = 8192;

    private SqlTypes() {
    }

    public static String of(String sql) {
        if (sql == null) {
            return OTHER;
        }
        int n = Math.min(sql.length(), MAX_SCAN);
        int i = skipNoise(sql, 0, n, true);
        if (i >= n) {
            return OTHER;
        }
        String type = keyword(sql, i, n);
        if (type != null) {
            return type;
        }
        if (word(sql, i, n, "WITH")) {
            return afterWith(sql, i + 4, n);
        }
        return OTHER;
    }

    /** The first SELECT/INSERT/UPDATE/DELETE outside parentheses, strings and comments. */
    private static String afterWith(String sql, int i, int n) {
        int depth = 0;
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                i = skipQuoted(sql, i, n, c);
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                i = skipLineComment(sql, i, n);
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                i = skipBlockComment(sql, i, n);
            } else if (c == '(') {
                depth++;
                i++;
            } else if (c == ')') {
                depth--;
                i++;
            } else if (isWordChar(c)) {
                int start = i;
                while (i < n && isWordChar(sql.charAt(i))) {
                    i++;
                }
                if (depth <= 0 && (start == 0 || !isWordChar(sql.charAt(start - 1)))) {
                    String type = keyword(sql, start, n);
                    if (type != null) {
                        return type;
                    }
                }
            } else {
                i++;
            }
        }
        return OTHER;
    }

    private static String keyword(String sql, int i, int n) {
        if (word(sql, i, n, SELECT)) {
            return SELECT;
        }
        if (word(sql, i, n, INSERT)) {
            return INSERT;
        }
        if (word(sql, i, n, UPDATE)) {
            return UPDATE;
        }
        if (word(sql, i, n, DELETE)) {
            return DELETE;
        }
        return null;
    }

    private static boolean word(String sql, int i, int n, String word) {
        int end = i + word.length();
        return end <= n && sql.regionMatches(true, i, word, 0, word.length())
                && (end == n || !isWordChar(sql.charAt(end)));
    }

    /** Skips whitespace, comments and (when asked) opening parentheses. */
    static int skipNoise(String sql, int i, int n, boolean parentheses) {
        while (i < n) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c) || (parentheses && c == '(')) {
                i++;
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                i = skipLineComment(sql, i, n);
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                i = skipBlockComment(sql, i, n);
            } else {
                return i;
            }
        }
        return n;
    }

    static int skipLineComment(String sql, int i, int n) {
        while (i < n && sql.charAt(i) != '\n') {
            i++;
        }
        return i;
    }

    static int skipBlockComment(String sql, int i, int n) {
        int end = sql.indexOf("*/", i + 2);
        return end < 0 || end + 2 > n ? n : end + 2;
    }

    /** Skips a quoted string or identifier starting at {@code i}; doubled quotes and backslashes escape. */
    static int skipQuoted(String sql, int i, int n, char quote) {
        i++;
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\\' && quote == '\'') {
                i += 2;
            } else if (c == quote) {
                if (i + 1 < n && sql.charAt(i + 1) == quote) {
                    i += 2;
                } else {
                    return i + 1;
                }
            } else {
                i++;
            }
        }
        return n;
    }

    static boolean isWordChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$';
    }
}
