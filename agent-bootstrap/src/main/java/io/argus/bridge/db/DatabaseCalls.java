package io.argus.bridge.db;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.AgentStatus;

/**
 * Database calls: JDBC statement executions, and the commands of other data stores (Redis,
 * MongoDB), as database spans and metrics (kind {@code db}). See the package {@code io.argus.bridge}.
 */
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
        hooks().statementCreated(statement, connection, sql);
    }

    /** Remembers the first SQL of a plain statement's batch ({@code addBatch(sql)}); null clears it. */
    public static void addBatch(Object statement, String sql) {
        hooks().addBatch(statement, sql);
    }

    /**
     * Enters a statement execution. Returns its start time, or 0 when it is nested in another
     * execution on this thread (a pool's wrapper calling the driver, a driver calling itself): then it
     * must record nothing. Every call must be paired with {@link #exit}.
     */
    public static long enter() {
        return hooks().enter();
    }

    /**
     * Starts a client span for the execution under the current span; null when this thread has no
     * sampled span. Call only when {@link #enter} returned a start time.
     *
     * @param sql the SQL passed to {@code execute*(sql)}, or null (prepared statements, batches)
     */
    public static ActiveSpan start(Object statement, String sql) {
        return hooks().start(statement, sql);
    }

    /**
     * Leaves the execution: when {@code startNanos} is not 0, records it in the database metrics (per
     * statement type and database) and ends the span, if any.
     */
    public static void exit(ActiveSpan span, long startNanos, Object statement, String sql, Throwable error) {
        hooks().exit(span, startNanos, statement, sql, error);
    }

    /**
     * Starts a client span for one command of a data store other than JDBC, under {@code parent} (a
     * context from {@link io.argus.bridge.context.TraceContext#current()}, for a command sent on another
     * thread than its caller's) or, when {@code parent} is null, under this thread's current span. Null
     * when that is not sampled.
     *
     * @param system    {@code redis}, {@code mongodb}, ...
     * @param operation the command ({@code GET}, {@code find}); keys the metrics with the target
     * @param statement the sanitised command, kept and bounded by the core (see {@link #statement})
     * @param target    the metrics target, {@code redis://host:port}, {@code mongodb://host:port/db}
     * @param dbName    the database (a MongoDB database, a Redis database index), or null
     */
    public static ActiveSpan startCall(Object parent, String system, String operation, String statement, String target,
                                       String dbName, String host, int port) {
        return hooks().startCall(parent, system, operation, statement, target, dbName, host, port);
    }

    /**
     * Ends a command started at {@code startNanos} (from {@link #enter}, or {@code System.nanoTime()} for
     * a command that completes elsewhere): records it in the database metrics under (operation, target)
     * and ends the span, if any; {@code target} may be null when the span carries it. {@code error} is
     * what the application sees fail, or null.
     */
    public static void endCall(ActiveSpan span, long startNanos, String operation, String target, Throwable error) {
        hooks().endCall(span, startNanos, operation, target, error);
    }

    /** As {@link #endCall}, for a command entered with {@link #enter} on this thread: leaves it too. */
    public static void exitCall(ActiveSpan span, long startNanos, String operation, String target, Throwable error) {
        hooks().exitCall(span, startNanos, operation, target, error);
    }

    /**
     * A command's statement for its span: {@code operation} and its first arguments, each a
     * {@code String}, {@code byte[]}, {@code ByteBuffer}, number, or null for a value to hide ({@code ?});
     * each argument and the whole are bounded; {@code count} is how many arguments the command has in
     * all (more than 32 are not shown). Call only for a traced command.
     */
    public static String statement(String operation, Object[] args, int count) {
        return hooks().statement(operation, args, count);
    }

    /** The core's hooks; before the core is ready (advice in a class defined early), waits for it. */
    private static DatabaseHooks hooks() {
        DatabaseHooks installed = hooks;
        if (installed == DatabaseHooks.NOOP) {
            AgentStatus.awaitSettled();
            installed = hooks;
        }
        return installed;
    }
}
