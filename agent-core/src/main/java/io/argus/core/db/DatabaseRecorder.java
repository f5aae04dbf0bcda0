package io.argus.core.db;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.db.DatabaseHooks;
import io.argus.core.metrics.CallMetricsTable;
import io.argus.core.trace.RecordedSpan;
import io.argus.core.trace.Tracer;

/** The agent behind {@code DatabaseCalls}: database spans and metrics per statement type and database. */
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
