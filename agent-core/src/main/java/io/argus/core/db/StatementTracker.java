package io.argus.core.db;

import io.argus.core.AgentCounters;
import io.argus.core.state.WeakIdentityMap;

import java.sql.Connection;
import java.sql.Statement;

/**
 * The agent's memory of JDBC objects: per statement, its prepared SQL, statement type and
 * database; per connection, its database (read once from the connection's metadata). Both maps
 * are weak and bounded. Also keeps the per-thread nesting depth of statement executions, so a
 * pool's wrapper calling the driver, or a driver calling itself, is counted once.
 */
public final class StatementTracker {

    static final int MAX_STATEMENTS = 100_000;
    static final int MAX_CONNECTIONS = 10_000;

    private static final ThreadLocal<int[]> DEPTH = new ThreadLocal<int[]>() {
        @Override
        protected int[] initialValue() {
            return new int[2]; // [0] nesting depth of executions, [1] 1 while reading a connection's URL
        }
    };

    private final WeakIdentityMap<StatementInfo> statements;
    private final WeakIdentityMap<DbInfo> connections;
    private final AgentCounters counters;

    public StatementTracker(AgentCounters counters) {
        this(counters, MAX_STATEMENTS, MAX_CONNECTIONS);
    }

    StatementTracker(AgentCounters counters, int maxStatements, int maxConnections) {
        this.counters = counters;
        this.statements = new WeakIdentityMap<StatementInfo>(maxStatements);
        this.connections = new WeakIdentityMap<DbInfo>(maxConnections);
    }

    /** A connection created {@code statement}; {@code sql} is null for createStatement. */
    public void created(Object statement, Object connection, String sql) {
        if (statement == null) {
            return;
        }
        StatementInfo info = new StatementInfo(database(connection), sql);
        if (!statements.put(statement, info)) {
            counters.droppedBindings.incrementAndGet();
        }
    }

    public void addBatch(Object statement, String sql) {
        StatementInfo info = statement(statement);
        if (info != null && info.sql == null && (sql == null || info.batchSql == null)) {
            info.batchSql = sql;
        }
    }

    /** Returns the start time, or 0 for a nested execution. Must be paired with {@link #exit}. */
    public long enter() {
        int[] depth = DEPTH.get();
        if (depth[0]++ > 0) {
            return 0;
        }
        long now = System.nanoTime();
        return now == 0 ? 1 : now;
    }

    public void exit() {
        int[] depth = DEPTH.get();
        if (depth[0] > 0) {
            depth[0]--;
        }
    }

    /** What is known about {@code statement}; learnt from its connection when it was created unseen. */
    public StatementInfo statement(Object statement) {
        if (statement == null) {
            return null;
        }
        StatementInfo info = statements.get(statement);
        if (info != null) {
            return info;
        }
        Object connection = null;
        if (statement instanceof Statement) {
            try {
                connection = ((Statement) statement).getConnection();
            } catch (Throwable closedOrUnsupported) {
                // not known: the database stays unknown
            }
        }
        DbInfo db = database(connection);
        info = new StatementInfo(db, null);
        if (!statements.put(statement, info)) {
            // full: share one entry per database rather than allocating on every execution
            info = db.unregistered();
        }
        return info;
    }

    /** The statement type of one execution: of the SQL passed to it, else of the prepared or batched SQL. */
    public static String type(StatementInfo info, String sql) {
        if (sql != null) {
            return SqlTypes.of(sql);
        }
        if (info.type != null) {
            return info.type;
        }
        String batch = info.batchSql;
        return batch != null ? SqlTypes.of(batch) : SqlTypes.OTHER;
    }

    /** The SQL of one execution, for its span. */
    public static String sql(StatementInfo info, String sql) {
        if (sql != null) {
            return sql;
        }
        return info.sql != null ? info.sql : info.batchSql;
    }

    /** Called after a plain statement's batch ran: the next batch starts afresh. */
    public static void batchDone(StatementInfo info, String sql) {
        if (sql == null && info.sql == null && info.batchSql != null) {
            info.batchSql = null;
        }
    }

    DbInfo database(Object connection) {
        if (connection == null) {
            return DbInfo.UNKNOWN;
        }
        DbInfo known = connections.get(connection);
        if (known != null) {
            return known;
        }
        int[] state = DEPTH.get();
        if (state[1] != 0 || !(connection instanceof Connection)) {
            // a driver whose getMetaData() creates statements must not recurse
            return DbInfo.UNKNOWN;
        }
        DbInfo info;
        state[1] = 1;
        try {
            info = DbInfo.fromUrl(((Connection) connection).getMetaData().getURL());
        } catch (Throwable t) {
            info = DbInfo.UNKNOWN;
        } finally {
            state[1] = 0;
        }
        connections.put(connection, info);
        return info;
    }
}
