package io.argus.core.db;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SqlSanitizerTest {

    private static String s(String sql) {
        return SqlSanitizer.sanitize(sql);
    }

    @Test
    void replacesStringAndNumericLiterals() {
        assertThat(s("SELECT * FROM users WHERE name = 'bob' AND age > 42"))
                .isEqualTo("SELECT * FROM users WHERE name = ? AND age > ?");
        assertThat(s("UPDATE t SET price = 12.50, ratio = .5, big = 1e10, small = 2.5E-3 WHERE id = 7"))
                .isEqualTo("UPDATE t SET price = ?, ratio = ?, big = ?, small = ? WHERE id = ?");
        assertThat(s("SELECT 0xFF, X'0A0B', B'101', N'unicode', E'esc\\'aped', U&'d\\0061t'"))
                .isEqualTo("SELECT ?, ?, ?, ?, ?, ?");
    }

    @Test
    void quotesWithEscapesDoNotLeak() {
        assertThat(s("INSERT INTO t VALUES ('it''s', 'a\\'b', 'x')"))
                .isEqualTo("INSERT INTO t VALUES (?, ?, ?)");
        assertThat(s("SELECT 'a -- not a comment' , '/* nor this */' FROM t"))
                .isEqualTo("SELECT ? , ? FROM t");
        assertThat(s("SELECT 'unterminated secret")).isEqualTo("SELECT ?");
    }

    @Test
    void dollarQuotedStrings() {
        assertThat(s("SELECT $$secret ' text$$, $tag$more $$ inside$tag$ FROM t WHERE a = $1"))
                .isEqualTo("SELECT ?, ? FROM t WHERE a = $1");
    }

    @Test
    void inListsAndNegativeNumbers() {
        assertThat(s("SELECT * FROM t WHERE id IN (1, 2, 3)")).isEqualTo("SELECT * FROM t WHERE id IN (?, ?, ?)");
        assertThat(s("SELECT * FROM t WHERE a = -5 AND b=-1.5 AND c IN (-1,+2)"))
                .isEqualTo("SELECT * FROM t WHERE a = ? AND b=? AND c IN (?,?)");
        assertThat(s("SELECT a-5, (b)-2, ?-1 FROM t")).isEqualTo("SELECT a-?, (b)-?, ?-? FROM t");
    }

    @Test
    void identifiersWithDigitsAndQuotedIdentifiersStay() {
        assertThat(s("SELECT t1.col2, \"Weird Name 3\", `m4` FROM schema1.t1 t1 WHERE t1.x_9 = 10"))
                .isEqualTo("SELECT t1.col2, \"Weird Name 3\", `m4` FROM schema1.t1 t1 WHERE t1.x_9 = ?");
        assertThat(s("SELECT * FROM t WHERE a = ? AND b = :name AND c = $2"))
                .isEqualTo("SELECT * FROM t WHERE a = ? AND b = :name AND c = $2");
    }

    @Test
    void stripsCommentsAndCollapsesWhitespace() {
        assertThat(s("  /* leading */ SELECT a,\n\t b -- trailing 'x'\n FROM   t /* mid */ WHERE c = 1  "))
                .isEqualTo("SELECT a, b FROM t WHERE c = ?");
        assertThat(s("SELECT 1 /* unterminated")).isEqualTo("SELECT ?");
    }

    @Test
    void longSqlIsCut() {
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int i = 0; i < 2000; i++) {
            sql.append("col").append(i).append(", ");
        }
        String out = s(sql.append("x FROM t").toString());
        assertThat(out).hasSizeLessThanOrEqualTo(SqlSanitizer.MAX_LENGTH + 3).endsWith("...");
        assertThat(s(null)).isNull();
        assertThat(s("")).isEmpty();
    }
}
