package io.argus.bridge;

/**
 * The static entry points that inlined advice calls. This package is the only agent code on the
 * bootstrap class path, and it references nothing outside itself and the JDK.
 *
 * <p>Contract for advice: an untraced request gets {@code null} back from every {@code *Start}
 * method and must then allocate nothing; every {@code *End} method accepts a {@code null} span and
 * still records metrics. Advice declares {@code suppress = Throwable.class} so that a failure in it
 * is counted through {@link #adviceError} and never reaches the application.
 */
public final class Argus {

    private static volatile ArgusHooks hooks = ArgusHooks.NOOP;

    private Argus() {
    }

    /** Called once by the agent core at start-up. */
    public static void install(ArgusHooks implementation) {
        hooks = implementation == null ? ArgusHooks.NOOP : implementation;
    }

    // ---- HTTP server

    /**
     * Starts a server span when the request is sampled (or its parent was) and makes it current
     * on this thread. Returns {@code null} when the request is not traced.
     *
     * @param traceparent the inbound W3C header, or null
     * @param tracestate  the inbound W3C tracestate, or null
     * @param b3          the inbound single-header B3 value (see {@link #b3Multi}), or null
     */
    public static ActiveSpan serverStart(String method, String path, String traceparent, String tracestate, String b3) {
        return hooks.serverStart(method, path, traceparent, tracestate, b3);
    }

    /** Records the request in the HTTP server metrics and ends the span, if any. */
    public static void serverEnd(ActiveSpan span, long startNanos, String method, String path, int status, Throwable error) {
        hooks.serverEnd(span, startNanos, method, path, status, error);
    }

    /** Turns multi-header B3 into the single-header form; call only when X-B3-TraceId is present. */
    public static String b3Multi(String traceId, String spanId, String sampled) {
        if (traceId == null || spanId == null) {
            return null;
        }
        return sampled == null ? traceId + '-' + spanId : traceId + '-' + spanId + '-' + sampled;
    }

    // ---- HTTP client

    /** Starts a client span as a child of the current span. Returns null when there is no sampled current span. */
    public static ActiveSpan clientStart(String method, String host, int port, String url) {
        return hooks.clientStart(method, host, port, url);
    }

    /** Records the call in the HTTP client metrics (per host, method, status) and ends the span, if any. */
    public static void clientEnd(ActiveSpan span, long startNanos, String method, String host, int status, Throwable error) {
        hooks.clientEnd(span, startNanos, method, host, status, error);
    }

    /**
     * For asynchronous clients: records the call (as {@link #clientEnd}) when {@code completionStage}
     * (a {@code java.util.concurrent.CompletionStage}) completes; the status is read from the result's
     * {@code statusCode()} when it has one. Allocates one callback per call.
     */
    public static void clientEndOnCompletion(Object completionStage, ActiveSpan span, long startNanos, String method,
                                             String host) {
        hooks.clientEndOnCompletion(completionStage, span, startNanos, method, host);
    }

    /**
     * For a client call that ends on another thread, on a library object that has no room for the
     * agent's state (a request object): remembers the call's start and span ({@code null} when
     * untraced) under the object's identity until {@link #clientEndPending}. Takes no lock and
     * allocates nothing while the agent's table of calls in flight has room near the object's slot;
     * beyond that (thousands of calls in flight) the oldest calls move to a weak map, two small
     * objects each.
     */
    public static void clientPending(Object carrier, ActiveSpan span, long startNanos) {
        hooks.clientPending(carrier, span, startNanos);
    }

    /**
     * Ends the call {@link #clientPending} remembered for {@code carrier}, as {@link #clientEnd}
     * does. Returns false, and records nothing, when none is remembered (it has already ended).
     */
    public static boolean clientEndPending(Object carrier, String method, String host, int status, Throwable error) {
        return hooks.clientEndPending(carrier, method, host, status, error);
    }

    // ---- internal spans (method tracing)

    public static ActiveSpan internalStart(String name) {
        return hooks.internalStart(name);
    }

    public static void internalEnd(ActiveSpan span, Throwable error) {
        hooks.internalEnd(span, error);
    }

    // ---- context

    /** Restores the context that was current before {@code span} was started on this thread. */
    public static void detach(ActiveSpan span) {
        hooks.detach(span);
    }

    /** The current context, to be carried to another thread; null when nothing is traced. */
    public static Object currentContext() {
        return hooks.currentContext();
    }

    /** Makes {@code context} current on this thread and returns what was current before. */
    public static Object attachContext(Object context) {
        return hooks.attachContext(context);
    }

    /** Undoes {@link #attachContext}. */
    public static void restoreContext(Object previous) {
        hooks.restoreContext(previous);
    }

    /**
     * Wraps a task so that it runs with this thread's current context; returns the task itself
     * (no allocation) when nothing is traced here or it is already wrapped.
     */
    public static Runnable wrap(Runnable task) {
        if (task == null || task instanceof ContextRunnable) {
            return task;
        }
        Object context = hooks.currentContext();
        return context == null ? task : new ContextRunnable(context, task);
    }

    /** As {@link #wrap(Runnable)}, for callables. */
    public static <V> java.util.concurrent.Callable<V> wrap(java.util.concurrent.Callable<V> task) {
        if (task == null || task instanceof ContextCallable) {
            return task;
        }
        Object context = hooks.currentContext();
        return context == null ? task : new ContextCallable<V>(context, task);
    }

    /**
     * Carries this thread's current context to a task object that cannot be wrapped (a
     * {@code ForkJoinTask}, a {@code Thread}): whoever runs it later calls {@link #takeContext}.
     * Does nothing, and allocates nothing, when nothing is traced here.
     */
    public static void bindContext(Object carrier) {
        hooks.bindContext(carrier);
    }

    /**
     * Removes and returns the context {@link #bindContext} left on {@code carrier}; null when there
     * is none. Costs a field read while no context is bound anywhere.
     */
    public static Object takeContext(Object carrier) {
        return hooks.takeContext(carrier);
    }

    /** Associates a span with a library object (a connection, a request) until {@link #unbind}. */
    public static void bind(Object carrier, ActiveSpan span) {
        hooks.bind(carrier, span);
    }

    public static ActiveSpan unbind(Object carrier) {
        return hooks.unbind(carrier);
    }

    // ---- databases (JDBC)

    /**
     * Remembers what a statement a connection just created will run: {@code sql} from
     * {@code prepareStatement}/{@code prepareCall}, or null from {@code createStatement}. Called
     * for every statement created (traced or not); the core keeps it weakly and bounded.
     */
    public static void dbStatementCreated(Object statement, Object connection, String sql) {
        hooks.dbStatementCreated(statement, connection, sql);
    }

    /** Remembers the first SQL of a plain statement's batch ({@code addBatch(sql)}); null clears it. */
    public static void dbAddBatch(Object statement, String sql) {
        hooks.dbAddBatch(statement, sql);
    }

    /**
     * Enters a statement execution. Returns its start time, or 0 when it is nested in another
     * execution on this thread (a pool's wrapper calling the driver, a driver calling itself):
     * then it must record nothing. Every call must be paired with {@link #dbExit}.
     */
    public static long dbEnter() {
        return hooks.dbEnter();
    }

    /**
     * Starts a client span for the execution under the current span; null when this thread has
     * no sampled span. Call only when {@link #dbEnter} returned a start time.
     *
     * @param sql the SQL passed to {@code execute*(sql)}, or null (prepared statements, batches)
     */
    public static ActiveSpan dbStart(Object statement, String sql) {
        return hooks.dbStart(statement, sql);
    }

    /**
     * Leaves the execution: when {@code startNanos} is not 0, records it in the database metrics
     * (per statement type and database) and ends the span, if any.
     */
    public static void dbExit(ActiveSpan span, long startNanos, Object statement, String sql, Throwable error) {
        hooks.dbExit(span, startNanos, statement, sql, error);
    }

    // ---- errors

    /** Counts a throwable that escaped advice code. Called by the advice exception handler. */
    public static void adviceError(Throwable error) {
        hooks.adviceError(error);
    }
}
