package io.argus.core.db;

/** What the agent remembers about one JDBC statement object, from the call that created it. */
public final class StatementInfo {

    public final DbInfo db;
    /** The prepared SQL; null for a plain statement, which gets its SQL with each execution. */
    public final String sql;
    /** The type of {@link #sql}, computed once; null for a plain statement. */
    public final String type;
    /** The first SQL added to a plain statement's pending batch; written by the statement's own thread. */
    volatile String batchSql;

    StatementInfo(DbInfo db, String sql) {
        this.db = db;
        this.sql = sql;
        this.type = sql == null ? null : SqlTypes.of(sql);
    }
}
