package io.argus.core.instrument;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What the engine's start-up cost, for the start-up report: the engine's build on the start-up thread,
 * and the classes transformed as they load and retransformed after. A few atomic adds per
 * candidate class, nothing per dismissed class.
 */
public final class EngineTimings {

    private final AtomicLong loadTransforms = new AtomicLong();
    private final AtomicLong loadTransformNanos = new AtomicLong();
    private final AtomicLong retransforms = new AtomicLong();
    private final AtomicLong retransformNanos = new AtomicLong();
    private volatile long buildNanos = -1;
    private volatile long buildCpuNanos = -1;
    private volatile long startThreadCpuNanos = -1;

    /** A candidate class handed to ByteBuddy: as it loads, or as it is retransformed. */
    void transformed(boolean firstLoad, long nanos) {
        if (firstLoad) {
            loadTransforms.incrementAndGet();
            loadTransformNanos.addAndGet(nanos);
        } else {
            retransforms.incrementAndGet();
            retransformNanos.addAndGet(nanos);
        }
    }

    void built(long wallNanos, long cpuNanos) {
        buildNanos = wallNanos;
        buildCpuNanos = cpuNanos;
    }

    /** The start-up thread is done with the engine: built it and retransformed what loaded before it. */
    void startThreadDone(long cpuNanos) {
        startThreadCpuNanos = cpuNanos;
    }

    public long loadTransforms() {
        return loadTransforms.get();
    }

    public long retransforms() {
        return retransforms.get();
    }

    public String describe() {
        return "engine built in " + millis(buildNanos) + " ms (cpu " + millis(buildCpuNanos) + " ms)"
                + ", engine cpu on the start-up thread " + millis(startThreadCpuNanos) + " ms"
                + "; " + loadTransforms.get() + " classes transformed as they loaded in " + millis(loadTransformNanos.get())
                + " ms, " + retransforms.get() + " retransformed in " + millis(retransformNanos.get()) + " ms";
    }

    private static String millis(long nanos) {
        return nanos < 0 ? "?" : Long.toString(nanos / 1_000_000);
    }
}
