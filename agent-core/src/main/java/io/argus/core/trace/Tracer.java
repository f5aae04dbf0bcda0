package io.argus.core.trace;

/**
 * Creates spans and keeps the current one per thread. Nothing here allocates unless a span is
 * sampled; an untraced request reads the thread's context and the sampler, and returns null.
 */
public final class Tracer {

    private static final ThreadLocal<RecordedSpan> CURRENT = new ThreadLocal<RecordedSpan>();
    /**
     * The context this thread inherited from the thread that started it, if any. Unlike a task's,
     * a thread's context may outlive its span by far (a pool or event-loop thread started during a
     * request), so it lapses when its span has ended: see {@link #liveCurrent()}.
     */
    private static final ThreadLocal<RecordedSpan> INHERITED = new ThreadLocal<RecordedSpan>();

    /** epoch nanos = this + System.nanoTime() */
    private final long epochOffsetNanos;
    private final Sampler sampler;
    private final SpanSink sink;
    /** False: the sampler decides every server request; callers' ids are joined, their decisions ignored. */
    private final boolean honorInboundSampling;

    public Tracer(Sampler sampler, SpanSink sink) {
        this(sampler, sink, true);
    }

    public Tracer(Sampler sampler, SpanSink sink, boolean honorInboundSampling) {
        this.sampler = sampler;
        this.sink = sink;
        this.honorInboundSampling = honorInboundSampling;
        this.epochOffsetNanos = System.currentTimeMillis() * 1_000_000L - System.nanoTime();
    }

    /** A server span, joined to the inbound context when there is a valid one. */
    public RecordedSpan startServer(String method, String path, String traceparent, String tracestate, String b3) {
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
        begin(span);
        makeCurrent(span);
        return span;
    }

    /** A client span under the current span; null when this thread has no sampled span. */
    public RecordedSpan startClient(String method, String host, int port, String url) {
        RecordedSpan parent = liveCurrent();
        if (parent == null) {
            return null;
        }
        RecordedSpan span = childOf(parent, RecordedSpan.KIND_CLIENT);
        span.method = method;
        span.host = host;
        span.port = port;
        span.target = url;
        begin(span);
        return span;
    }

    /**
     * A database client span under the current span; null when this thread has no sampled span.
     * {@code sql} is kept raw and sanitised on the exporter thread.
     */
    public RecordedSpan startDb(String type, String system, String dbName, String host, int port, String sql) {
        RecordedSpan parent = liveCurrent();
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
        begin(span);
        return span;
    }

    /** An internal span: a child of the current span, or a new sampled root. Made current. */
    public RecordedSpan startInternal(String name) {
        RecordedSpan parent = liveCurrent();
        RecordedSpan span;
        if (parent != null) {
            span = childOf(parent, RecordedSpan.KIND_INTERNAL);
        } else if (sampler.sampleRoot()) {
            span = new RecordedSpan(RecordedSpan.KIND_INTERNAL);
            newTrace(span);
            span.spanId = TraceIds.randomNonZero();
        } else {
            return null;
        }
        span.name = name;
        begin(span);
        makeCurrent(span);
        return span;
    }

    /** Ends the span, records it and, if it is current on this thread, restores the previous context. */
    public void end(RecordedSpan span, long endNanoTime, Throwable thrown, boolean failed) {
        if (span.isFinished()) {
            return;
        }
        if (CURRENT.get() == span) {
            CURRENT.set(span.previous);
        }
        span.finish(endNanoTime, thrown, failed);
        sink.accept(span);
    }

    public void detach(RecordedSpan span) {
        if (CURRENT.get() == span) {
            CURRENT.set(span.previous);
            span.previous = null;
        }
    }

    public RecordedSpan current() {
        return liveCurrent();
    }

    /** Marks {@code span}, about to be attached to this thread for its whole run, as inherited from its starter. */
    public void markInherited(RecordedSpan span) {
        INHERITED.set(span);
    }

    /** The current span, unless it is an inherited thread context whose span has ended: that one is dropped. */
    private static RecordedSpan liveCurrent() {
        RecordedSpan span = CURRENT.get();
        if (span != null && span.isFinished() && span == INHERITED.get()) {
            CURRENT.set(null);
            INHERITED.remove();
            return null;
        }
        return span;
    }

    public RecordedSpan attach(RecordedSpan context) {
        RecordedSpan previous = CURRENT.get();
        if (previous != context) {
            CURRENT.set(context);
        }
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

    private void begin(RecordedSpan span) {
        long now = System.nanoTime();
        span.startNanoTime = now;
        span.startEpochNanos = epochOffsetNanos + now;
    }

    private static void makeCurrent(RecordedSpan span) {
        span.previous = CURRENT.get();
        CURRENT.set(span);
    }
}
