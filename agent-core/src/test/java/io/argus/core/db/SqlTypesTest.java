package io.argus.core.db;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SqlTypesTest {

    @Test
    void firstKeywordDecides() {
        assertThat(SqlTypes.of("select * from t")).isSameAs(SqlTypes.SELECT);
        assertThat(SqlTypes.of("  /* hint */ -- c\n INSERT INTO t VALUES (1)")).isSameAs(SqlTypes.INSERT);
        assertThat(SqlTypes.of("Update t set a = 1")).isSameAs(SqlTypes.UPDATE);
        assertThat(SqlTypes.of("delete from t")).isSameAs(SqlTypes.DELETE);
        assertThat(SqlTypes.of("((SELECT 1) UNION (SELECT 2))")).isSameAs(SqlTypes.SELECT);
        assertThat(SqlTypes.of("CREATE TABLE t (id INT)")).isSameAs(SqlTypes.OTHER);
        assertThat(SqlTypes.of("{call proc(?)}")).isSameAs(SqlTypes.OTHER);
        assertThat(SqlTypes.of("selection")).isSameAs(SqlTypes.OTHER);
        assertThat(SqlTypes.of("")).isSameAs(SqlTypes.OTHER);
        assertThat(SqlTypes.of(null)).isSameAs(SqlTypes.OTHER);
    }

    @Test
    void commonTableExpressions() {
        assertThat(SqlTypes.of("WITH x AS (SELECT 1) DELETE FROM t WHERE id IN (SELECT * FROM x)"))
                .isSameAs(SqlTypes.DELETE);
        assertThat(SqlTypes.of("with a as (select 'update' from u), b as (select 2) select * from a, b"))
                .isSameAs(SqlTypes.SELECT);
        assertThat(SqlTypes.of("WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n FROM r"))
                .isSameAs(SqlTypes.SELECT);
    }
}
