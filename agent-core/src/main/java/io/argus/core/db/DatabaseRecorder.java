package io.argus.core.db;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.db.DatabaseHooks;
import io.argus.core.metrics.CallMetricsTable;
import io.argus.core.trace.RecordedSpan;
import io.argus.core.trace.Tracer;

/**
 * The agent behind {@code DatabaseCalls}: database spans and metrics, per statement type and database
 * for JDBC, per command and target (a server, {@code redis://host:port}) for the other stores.
 */
public final class DatabaseRecorder implements DatabaseHooks {

    private final Tracer tracer;
    private final CallMetricsTable metrics;
    private final StatementTracker statements;

    public DatabaseRecorder(Tracer tracer, CallMetricsTable metrics, StatementTracker statements) {
        this.tracer = tracer;
        this.metrics = metrics;
        this.statements = statements;
    }

    @Override
    public void statementCreated(Object statement, Object connection, String sql) {
        statements.created(statement, connection, sql);
    }

    @Override
    public void addBatch(Object statement, String sql) {
        statements.addBatch(statement, sql);
    }

    @Override
    public long enter() {
        return statements.enter();
    }

    @Override
    public ActiveSpan start(Object statement, String sql) {
        if (tracer.current() == null) {
            return null;
        }
        StatementInfo info = statements.statement(statement);
        if (info == null) {
            return null;
        }
        return tracer.startDb(StatementTracker.type(info, sql), info.db.system, info.db.name, info.db.host, info.db.port,
                StatementTracker.sql(info, sql));
    }

    @Override
    public ActiveSpan startCall(Object parent, String system, String operation, String statement, String target,
                                String dbName, String host, int port) {
        return tracer.startCall(parent instanceof RecordedSpan ? (RecordedSpan) parent : null, system, operation,
                CommandStatement.bounded(statement), target, dbName, host, port, System.nanoTime());
    }

    @Override
    public void endCall(ActiveSpan span, long startNanos, String operation, String target, Throwable error) {
        if (startNanos == 0) {
            return;
        }
        long now = System.nanoTime();
        RecordedSpan recorded = span instanceof RecordedSpan ? (RecordedSpan) span : null;
        if (target == null && recorded != null && !recorded.callTarget().isEmpty()) {
            target = recorded.callTarget();
        }
        metrics.record(operation, target, 0, now - startNanos, error != null);
        if (recorded != null) {
            tracer.end(recorded, now, error, error != null);
        }
    }

    @Override
    public void exitCall(ActiveSpan span, long startNanos, String operation, String target, Throwable error) {
        statements.exit();
        endCall(span, startNanos, operation, target, error);
    }

    @Override
    public String statement(String operation, Object[] args, int count) {
        return CommandStatement.of(operation, args, count);
    }

    @Override
    public void exit(ActiveSpan span, long startNanos, Object statement, String sql, Throwable error) {
        statements.exit();
        if (startNanos == 0) {
            return;
        }
        long now = System.nanoTime();
        StatementInfo info = statements.statement(statement);
        if (info != null) {
            metrics.record(StatementTracker.type(info, sql), info.db.target, 0, now - startNanos, error != null);
            StatementTracker.batchDone(info, sql);
        }
        if (span instanceof RecordedSpan) {
            tracer.end((RecordedSpan) span, now, error, error != null);
        }
    }
}
