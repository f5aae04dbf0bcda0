package io.argus.core.db;

/**
 * Turns SQL into a form safe to store and group by: string, numeric, hexadecimal and
 * dollar-quoted literals become {@code ?}, comments go, and runs of whitespace become one space.
 * Identifiers (also quoted ones, and ones with digits such as {@code t1}), keywords, operators and
 * bind placeholders ({@code ?}, {@code :name}, {@code $1}) stay. Runs on the exporter thread, for
 * sampled spans only.
 *
 * <p>Inside single-quoted strings both a doubled quote and a backslash escape the next character
 * (MySQL's default); with standard SQL strings that end in a backslash this errs towards hiding
 * more, never less.
 */
public final class SqlSanitizer {

    /** Longer SQL is cut (after sanitising) and ends with "...". */
    public static final int MAX_LENGTH = 2048;

    private SqlSanitizer() {
    }

    public static String sanitize(String sql) {
        if (sql == null) {
            return null;
        }
        int n = sql.length();
        StringBuilder out = new StringBuilder(Math.min(n, MAX_LENGTH) + 8);
        /* the last token written: 'w' word, 'n' literal or ?, ')' closing bracket, 'o' anything else */
        char last = 'o';
        boolean space = false;
        int i = 0;
        while (i < n && out.length() <= MAX_LENGTH) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c)) {
                space = out.length() > 0;
                i++;
                continue;
            }
            if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                i = SqlTypes.skipLineComment(sql, i, n);
                space = out.length() > 0;
                continue;
            }
            if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                i = SqlTypes.skipBlockComment(sql, i, n);
                space = out.length() > 0;
                continue;
            }
            if (space) {
                out.append(' ');
                space = false;
            }
            if (c == '\'') {
                i = SqlTypes.skipQuoted(sql, i, n, '\'');
                last = literal(out);
            } else if (c == '"' || c == '`') {
                int end = SqlTypes.skipQuoted(sql, i, n, c);
                out.append(sql, i, end);
                i = end;
                last = 'w';
            } else if (c == '$' && i + 1 < n && dollarTagEnd(sql, i, n) > 0) {
                int tagEnd = dollarTagEnd(sql, i, n);
                String tag = sql.substring(i, tagEnd);
                int close = sql.indexOf(tag, tagEnd);
                i = close < 0 ? n : close + tag.length();
                last = literal(out);
            } else if (isDigit(c) || (c == '.' && i + 1 < n && isDigit(sql.charAt(i + 1)))) {
                i = skipNumber(sql, i, n);
                last = literal(out);
            } else if ((c == '-' || c == '+') && last != 'w' && last != 'n' && last != ')' && i + 1 < n
                    && (isDigit(sql.charAt(i + 1)) || sql.charAt(i + 1) == '.')) {
                /* a sign in front of a number where no operand precedes it: part of the literal */
                i = skipNumber(sql, i + 1, n);
                last = literal(out);
            } else if (SqlTypes.isWordChar(c)) {
                int start = i;
                while (i < n && SqlTypes.isWordChar(sql.charAt(i))) {
                    i++;
                }
                if (i < n && sql.charAt(i) == '\'' && isLiteralPrefix(sql, start, i)) {
                    /* E'...', N'...', X'...', B'...', U&'...' literals */
                    i = SqlTypes.skipQuoted(sql, i, n, '\'');
                    last = literal(out);
                } else if (i < n && sql.charAt(i) == '&' && i - start == 1 && (c == 'U' || c == 'u')
                        && i + 1 < n && sql.charAt(i + 1) == '\'') {
                    i = SqlTypes.skipQuoted(sql, i + 1, n, '\'');
                    last = literal(out);
                } else {
                    out.append(sql, start, i);
                    last = 'w';
                }
            } else {
                out.append(c);
                i++;
                last = c == '?' ? 'n' : c == ')' || c == ']' ? ')' : 'o';
            }
        }
        if (out.length() > MAX_LENGTH) {
            out.setLength(MAX_LENGTH);
            out.append("...");
        }
        return out.toString();
    }

    private static char literal(StringBuilder out) {
        out.append('?');
        return 'n';
    }

    private static boolean isLiteralPrefix(String sql, int start, int end) {
        if (end - start != 1) {
            return false;
        }
        char p = Character.toUpperCase(sql.charAt(start));
        return p == 'E' || p == 'N' || p == 'X' || p == 'B';
    }

    /** The end of a dollar-quote opening tag ({@code $$} or {@code $tag$}) at {@code i}; 0 if there is none. */
    private static int dollarTagEnd(String sql, int i, int n) {
        if (i > 0 && SqlTypes.isWordChar(sql.charAt(i - 1))) {
            return 0;
        }
        int j = i + 1;
        if (j < n && isDigit(sql.charAt(j))) {
            return 0; /* $1: a placeholder */
        }
        while (j < n && (Character.isLetterOrDigit(sql.charAt(j)) || sql.charAt(j) == '_')) {
            j++;
        }
        return j < n && sql.charAt(j) == '$' ? j + 1 : 0;
    }

    private static int skipNumber(String sql, int i, int n) {
        if (sql.charAt(i) == '0' && i + 1 < n && (sql.charAt(i + 1) == 'x' || sql.charAt(i + 1) == 'X')) {
            i += 2;
            while (i < n && (isDigit(sql.charAt(i)) || "abcdefABCDEF".indexOf(sql.charAt(i)) >= 0)) {
                i++;
            }
            return i;
        }
        while (i < n && (isDigit(sql.charAt(i)) || sql.charAt(i) == '.')) {
            i++;
        }
        if (i < n && (sql.charAt(i) == 'e' || sql.charAt(i) == 'E')) {
            int j = i + 1;
            if (j < n && (sql.charAt(j) == '+' || sql.charAt(j) == '-')) {
                j++;
            }
            if (j < n && isDigit(sql.charAt(j))) {
                i = j;
                while (i < n && isDigit(sql.charAt(i))) {
                    i++;
                }
            }
        }
        /* type suffixes such as 10L, 1.5f, 2BD */
        while (i < n && Character.isLetter(sql.charAt(i))) {
            i++;
        }
        return i;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
