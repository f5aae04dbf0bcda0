package io.argus.core;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.ArgusHooks;
import io.argus.core.db.DatabaseCalls;
import io.argus.core.db.StatementInfo;
import io.argus.core.metrics.HttpMetricsTable;
import io.argus.core.trace.CarrierBindings;
import io.argus.core.trace.ContextBindings;
import io.argus.core.trace.RecordedSpan;
import io.argus.core.trace.Tracer;

/** The agent behind {@link io.argus.bridge.Argus}: tracing plus HTTP and database metrics plus error counting. */
final class CoreHooks implements ArgusHooks {

    private static final int LOGGED_ADVICE_ERRORS = 10;

    private final Tracer tracer;
    private final HttpMetricsTable serverMetrics;
    private final HttpMetricsTable clientMetrics;
    private final AgentCounters counters;
    private final CarrierBindings bindings;
    private final HttpMetricsTable dbMetrics;
    private final DatabaseCalls dbCalls;
    private final ContextBindings contexts;
    private final PendingClientCalls pendingCalls;

    CoreHooks(Tracer tracer, HttpMetricsTable serverMetrics, HttpMetricsTable clientMetrics, AgentCounters counters) {
        this(tracer, serverMetrics, clientMetrics, new HttpMetricsTable(1000), counters);
    }

    CoreHooks(Tracer tracer, HttpMetricsTable serverMetrics, HttpMetricsTable clientMetrics, HttpMetricsTable dbMetrics,
              AgentCounters counters) {
        this.tracer = tracer;
        this.serverMetrics = serverMetrics;
        this.clientMetrics = clientMetrics;
        this.dbMetrics = dbMetrics;
        this.counters = counters;
        this.bindings = new CarrierBindings(counters);
        this.dbCalls = new DatabaseCalls(counters);
        this.contexts = new ContextBindings(counters);
        this.pendingCalls = new PendingClientCalls(counters);
    }

    @Override
    public ActiveSpan serverStart(String method, String path, String traceparent, String tracestate, String b3) {
        return tracer.startServer(method, path, traceparent, tracestate, b3);
    }

    @Override
    public void serverEnd(ActiveSpan span, long startNanos, String method, String path, int status, Throwable error) {
        long now = System.nanoTime();
        boolean failed = error != null || status >= 500;
        serverMetrics.record(method, path, status, now - startNanos, failed);
        if (span instanceof RecordedSpan) {
            RecordedSpan recorded = (RecordedSpan) span;
            recorded.setHttpStatus(status);
            tracer.end(recorded, now, error, failed);
        }
    }

    @Override
    public ActiveSpan clientStart(String method, String host, int port, String url) {
        return tracer.startClient(method, host, port, url);
    }

    @Override
    public void clientEnd(ActiveSpan span, long startNanos, String method, String host, int status, Throwable error) {
        long now = System.nanoTime();
        boolean failed = error != null || status >= 400 || status <= 0;
        clientMetrics.record(method, host, status, now - startNanos, failed);
        if (span instanceof RecordedSpan) {
            RecordedSpan recorded = (RecordedSpan) span;
            recorded.setHttpStatus(status);
            tracer.end(recorded, now, error, failed);
        }
    }

    @Override
    public void clientEndOnCompletion(Object completionStage, ActiveSpan span, long startNanos, String method,
                                      String host) {
        ClientCompletion.attach(this, completionStage, span, startNanos, method, host);
    }

    @Override
    public void clientPending(Object carrier, ActiveSpan span, long startNanos) {
        pendingCalls.put(carrier, span, startNanos);
    }

    @Override
    public boolean clientEndPending(Object carrier, String method, String host, int status, Throwable error) {
        return pendingCalls.end(carrier, this, method, host, status, error);
    }

    @Override
    public ActiveSpan internalStart(String name) {
        return tracer.startInternal(name);
    }

    @Override
    public void internalEnd(ActiveSpan span, Throwable error) {
        if (span instanceof RecordedSpan) {
            tracer.end((RecordedSpan) span, System.nanoTime(), error, false);
        }
    }

    @Override
    public void detach(ActiveSpan span) {
        if (span instanceof RecordedSpan) {
            tracer.detach((RecordedSpan) span);
        }
    }

    @Override
    public Object currentContext() {
        return tracer.current();
    }

    @Override
    public Object attachContext(Object context) {
        return tracer.attach(context instanceof RecordedSpan ? (RecordedSpan) context : null);
    }

    @Override
    public void restoreContext(Object previous) {
        tracer.attach(previous instanceof RecordedSpan ? (RecordedSpan) previous : null);
    }

    @Override
    public void bind(Object carrier, ActiveSpan span) {
        bindings.bind(carrier, span);
    }

    @Override
    public ActiveSpan unbind(Object carrier) {
        return bindings.unbind(carrier);
    }

    @Override
    public void bindContext(Object carrier) {
        RecordedSpan current = tracer.current();
        if (current != null) {
            contexts.bind(carrier, current);
        }
    }

    @Override
    public Object takeContext(Object carrier) {
        RecordedSpan context = contexts.take(carrier);
        if (context != null && carrier instanceof Thread && carrier == Thread.currentThread()) {
            // taken by Thread.run: the thread's whole life, so the context lapses with its span
            tracer.markInherited(context);
        }
        return context;
    }

    @Override
    public void dbStatementCreated(Object statement, Object connection, String sql) {
        dbCalls.created(statement, connection, sql);
    }

    @Override
    public void dbAddBatch(Object statement, String sql) {
        dbCalls.addBatch(statement, sql);
    }

    @Override
    public long dbEnter() {
        return dbCalls.enter();
    }

    @Override
    public ActiveSpan dbStart(Object statement, String sql) {
        if (tracer.current() == null) {
            return null;
        }
        StatementInfo info = dbCalls.statement(statement);
        if (info == null) {
            return null;
        }
        return tracer.startDb(DatabaseCalls.type(info, sql), info.db.system, info.db.name, info.db.host, info.db.port,
                DatabaseCalls.sql(info, sql));
    }

    @Override
    public void dbExit(ActiveSpan span, long startNanos, Object statement, String sql, Throwable error) {
        dbCalls.exit();
        if (startNanos == 0) {
            return;
        }
        long now = System.nanoTime();
        StatementInfo info = dbCalls.statement(statement);
        if (info != null) {
            dbMetrics.record(DatabaseCalls.type(info, sql), info.db.target, 0, now - startNanos, error != null);
            DatabaseCalls.batchDone(info, sql);
        }
        if (span instanceof RecordedSpan) {
            tracer.end((RecordedSpan) span, now, error, error != null);
        }
    }

    @Override
    public void adviceError(Throwable error) {
        long n = counters.adviceErrors.incrementAndGet();
        if (n <= LOGGED_ADVICE_ERRORS || n % 1000 == 0) {
            AgentLog.warn("probe error #" + n + " suppressed; the application was not affected", error);
        }
    }
}
