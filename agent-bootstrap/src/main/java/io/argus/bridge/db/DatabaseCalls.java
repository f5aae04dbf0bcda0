package io.argus.bridge.db;

import io.argus.bridge.ActiveSpan;

/** Statement executions (JDBC): database spans and metrics. See the package {@code io.argus.bridge}. */
public final class DatabaseCalls {

    private static volatile DatabaseHooks hooks = DatabaseHooks.NOOP;

    private DatabaseCalls() {
    }

    public static void install(DatabaseHooks implementation) {
        hooks = implementation == null ? DatabaseHooks.NOOP : implementation;
    }

    /**
     * Remembers what a statement a connection just created will run: {@code sql} from
     * {@code prepareStatement}/{@code prepareCall}, or null from {@code createStatement}. Called for
     * every statement created (traced or not); the core keeps it weakly and bounded.
     */
    public static void statementCreated(Object statement, Object connection, String sql) {
        hooks.statementCreated(statement, connection, sql);
    }

    /** Remembers the first SQL of a plain statement's batch ({@code addBatch(sql)}); null clears it. */
    public static void addBatch(Object statement, String sql) {
        hooks.addBatch(statement, sql);
    }

    /**
     * Enters a statement execution. Returns its start time, or 0 when it is nested in another
     * execution on this thread (a pool's wrapper calling the driver, a driver calling itself): then it
     * must record nothing. Every call must be paired with {@link #exit}.
     */
    public static long enter() {
        return hooks.enter();
    }

    /**
     * Starts a client span for the execution under the current span; null when this thread has no
     * sampled span. Call only when {@link #enter} returned a start time.
     *
     * @param sql the SQL passed to {@code execute*(sql)}, or null (prepared statements, batches)
     */
    public static ActiveSpan start(Object statement, String sql) {
        return hooks.start(statement, sql);
    }

    /**
     * Leaves the execution: when {@code startNanos} is not 0, records it in the database metrics (per
     * statement type and database) and ends the span, if any.
     */
    public static void exit(ActiveSpan span, long startNanos, Object statement, String sql, Throwable error) {
        hooks.exit(span, startNanos, statement, sql, error);
    }
}
