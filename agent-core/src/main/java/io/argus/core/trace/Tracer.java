package io.argus.core.trace;

/**
 * Creates spans and keeps the current one per thread. Nothing here allocates unless a span is
 * sampled; an untraced request reads the thread's context and the sampler, and returns null.
 */
public final class Tracer {

    /** Each thread's {@link ThreadContext}: one look-up per operation, whatever it reads or writes. */
    private static final ThreadLocal<ThreadContext> THREADS = new ThreadLocal<ThreadContext>();

    /** Epoch nanos = this + System.nanoTime(), for every span of this JVM: the spans keep the nano time alone. */
    static final long EPOCH_OFFSET_NANOS = System.currentTimeMillis() * 1_000_000L - System.nanoTime();
    private final Sampler sampler;
    private final SpanSink sink;
    /** False: the sampler decides every server request; callers' ids are joined, their decisions ignored. */
    private final boolean honorInboundSampling;
    /** Set once the first trace has begun, and what that first trace runs before it goes on. */
    private volatile boolean tracing;
    private volatile Runnable onFirstTrace;
    /** Set as the first trace starts, before {@link #onFirstTrace} runs. */
    private volatile boolean traceStarted;

    public Tracer(Sampler sampler, SpanSink sink) {
        this(sampler, sink, true);
    }

    public Tracer(Sampler sampler, SpanSink sink, boolean honorInboundSampling) {
        this.sampler = sampler;
        this.sink = sink;
        this.honorInboundSampling = honorInboundSampling;
    }

    /**
     * Runs {@code action} on the thread that starts the first trace, before the trace goes on; threads
     * that start traces meanwhile wait for it. Read on the traced path only.
     */
    public void onFirstTrace(Runnable action) {
        onFirstTrace = action;
    }

    /** Whether a trace has started (its {@link #onFirstTrace} action may still be running). */
    public boolean hasStartedTracing() {
        return traceStarted;
    }

    /** Called with every new root (a sampled request, or one joined to a sampled caller). */
    private void rootStarted() {
        if (!tracing) {
            firstTrace();
        }
    }

    private synchronized void firstTrace() {
        if (tracing) {
            return;
        }
        traceStarted = true;
        Runnable action = onFirstTrace;
        try {
            if (action != null) {
                action.run();
            }
        } finally {
            tracing = true;
        }
    }

    /** This thread's context; null when it was never given one (reading it then allocates nothing). */
    public static ThreadContext existingContext() {
        return THREADS.get();
    }

    /** This thread's context, created on first use. */
    public static ThreadContext context() {
        ThreadContext context = THREADS.get();
        if (context == null) {
            context = new ThreadContext();
            THREADS.set(context);
        }
        return context;
    }

    public RecordedSpan startServer(String method, String path, String traceparent, String tracestate, String b3) {
        return startServer(method, path, System.nanoTime(), traceparent, tracestate, b3, null);
    }

    /**
     * A server span started at {@code startNanos} ({@code System.nanoTime()}, which the server or the
     * advice has already read), joined to the inbound context when there is a valid one, and made
     * current on this thread. {@code thread} is this thread's context when the caller has it, else null.
     */
    public RecordedSpan startServer(String method, String path, long startNanos, String traceparent, String tracestate,
                                    String b3, ThreadContext thread) {
        RecordedSpan span;
        int decision = InboundContext.w3cDecision(traceparent);
        if (decision != InboundContext.INVALID) {
            if (honorInboundSampling ? decision == InboundContext.NOT_SAMPLED : !sampler.sampleRoot()) {
                return null;
            }
            span = new RecordedSpan(RecordedSpan.KIND_SERVER);
            InboundContext.w3cInto(traceparent, span);
            span.tracestate = tracestate;
        } else {
            decision = InboundContext.b3Decision(b3);
            boolean ownDecision = !honorInboundSampling || decision == InboundContext.DEFER
                    || decision == InboundContext.INVALID;
            if (ownDecision ? !sampler.sampleRoot() : decision == InboundContext.NOT_SAMPLED) {
                return null;
            }
            span = new RecordedSpan(RecordedSpan.KIND_SERVER);
            if (decision == InboundContext.SAMPLED || decision == InboundContext.DEFER) {
                InboundContext.b3Into(b3, span);
                if (span.traceIdHigh == 0 && span.traceIdLow == 0) {
                    newTrace(span);
                }
            } else {
                newTrace(span);
            }
        }
        span.spanId = TraceIds.randomNonZero();
        span.method = method;
        span.target = path;
        rootStarted();
        begin(span, startNanos);
        makeCurrent(span, thread != null ? thread : context());
        return span;
    }

    public RecordedSpan startClient(String method, String host, int port, String url) {
        return startClient(method, host, port, url, System.nanoTime());
    }

    /** A client span under the current span, started at {@code startNanos}; null when this thread has no sampled span. */
    public RecordedSpan startClient(String method, String host, int port, String url, long startNanos) {
        RecordedSpan parent = liveCurrent(THREADS.get());
        if (parent == null) {
            return null;
        }
        RecordedSpan span = childOf(parent, RecordedSpan.KIND_CLIENT);
        span.method = method;
        span.host = host;
        span.port = port;
        span.target = url;
        begin(span, startNanos);
        return span;
    }

    /**
     * A database client span under the current span; null when this thread has no sampled span.
     * {@code sql} is kept raw and sanitised on the exporter thread.
     */
    public RecordedSpan startDb(String type, String system, String dbName, String host, int port, String sql) {
        RecordedSpan parent = liveCurrent(THREADS.get());
        if (parent == null) {
            return null;
        }
        RecordedSpan span = childOf(parent, RecordedSpan.KIND_CLIENT);
        span.method = type;
        span.dbSystem = system;
        span.dbName = dbName;
        span.host = host;
        span.port = port;
        span.target = sql;
        begin(span, System.nanoTime());
        return span;
    }

    /** An internal span: a child of the current span, or a new sampled root. Made current. */
    public RecordedSpan startInternal(String name) {
        ThreadContext thread = THREADS.get();
        RecordedSpan parent = liveCurrent(thread);
        RecordedSpan span;
        if (parent != null) {
            span = childOf(parent, RecordedSpan.KIND_INTERNAL);
        } else if (sampler.sampleRoot()) {
            span = new RecordedSpan(RecordedSpan.KIND_INTERNAL);
            newTrace(span);
            span.spanId = TraceIds.randomNonZero();
            rootStarted();
        } else {
            return null;
        }
        span.target = name;
        begin(span, System.nanoTime());
        makeCurrent(span, thread != null ? thread : context());
        return span;
    }

    public void end(RecordedSpan span, long endNanoTime, Throwable thrown, boolean failed) {
        end(span, endNanoTime, thrown, failed, null);
    }

    /**
     * Ends the span, records it and, if it is current on this thread, restores the previous context.
     * {@code thread} is this thread's context when the caller has it, else null. Client spans are never
     * made current, so ending one looks nothing up.
     */
    public void end(RecordedSpan span, long endNanoTime, Throwable thrown, boolean failed, ThreadContext thread) {
        if (span.isFinished()) {
            return;
        }
        if (span.kind != RecordedSpan.KIND_CLIENT) {
            ThreadContext context = thread != null ? thread : THREADS.get();
            if (context != null && context.current == span) {
                context.current = span.previous;
            }
        }
        span.finish(endNanoTime, thrown, failed);
        sink.accept(span);
    }

    public void detach(RecordedSpan span) {
        ThreadContext context = THREADS.get();
        if (context != null && context.current == span) {
            context.current = span.previous;
            span.previous = null;
        }
    }

    public RecordedSpan current() {
        return liveCurrent(THREADS.get());
    }

    /** Attaches {@code span} to this thread for its whole run, as inherited from its starter; returns what was current. */
    public RecordedSpan attachInherited(RecordedSpan span) {
        ThreadContext thread = context();
        thread.inherited = span;
        RecordedSpan previous = thread.current;
        thread.current = span;
        return previous;
    }

    /** The current span, unless it is an inherited thread context whose span has ended: that one is dropped. */
    private static RecordedSpan liveCurrent(ThreadContext context) {
        if (context == null) {
            return null;
        }
        RecordedSpan span = context.current;
        if (span != null && span.isFinished() && span == context.inherited) {
            context.current = null;
            context.inherited = null;
            return null;
        }
        return span;
    }

    public RecordedSpan attach(RecordedSpan context) {
        ThreadContext thread = THREADS.get();
        if (thread == null) {
            if (context == null) {
                return null;
            }
            thread = context();
        }
        RecordedSpan previous = thread.current;
        thread.current = context;
        return previous;
    }

    private RecordedSpan childOf(RecordedSpan parent, byte kind) {
        RecordedSpan span = new RecordedSpan(kind);
        span.traceIdHigh = parent.traceIdHigh;
        span.traceIdLow = parent.traceIdLow;
        span.parentSpanId = parent.spanId;
        span.tracestate = parent.tracestate;
        span.spanId = TraceIds.randomNonZero();
        return span;
    }

    private static void newTrace(RecordedSpan span) {
        span.traceIdHigh = TraceIds.randomNonZero();
        span.traceIdLow = TraceIds.randomNonZero();
        span.parentSpanId = 0;
    }

    private static void begin(RecordedSpan span, long startNanos) {
        span.startNanoTime = startNanos;
    }

    private static void makeCurrent(RecordedSpan span, ThreadContext thread) {
        span.previous = thread.current;
        thread.current = span;
    }
}
