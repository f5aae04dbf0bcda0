package io.argus.perf.moobench;

/**
 * The instrumented code of the benchmark, after MooBench's {@code MonitoredClass}: a call
 * recurses until {@code recDepth} frames of this method are on the stack, then the innermost frame
 * busy-waits for {@code methodTime} nanoseconds of wall-clock time. One top-level call is one
 * trace of {@code recDepth} instrumented calls.
 *
 * <p>Only the benchmark thread runs here, on a core of its own when pinned, so
 * {@link System#nanoTime()} stands in for MooBench's thread CPU time (the paper allows this for a
 * single benchmark thread on an otherwise idle system). With {@code methodTime = 0} the busy-wait
 * reads the clock twice and returns.
 */
public final class MonitoredClass {

    public long monitoredMethod(long methodTime, int recDepth) {
        if (recDepth > 1) {
            return monitoredMethod(methodTime, recDepth - 1);
        }
        long exitTime = System.nanoTime() + methodTime;
        long now;
        do {
            now = System.nanoTime();
        } while (now < exitTime);
        return now;
    }
}
