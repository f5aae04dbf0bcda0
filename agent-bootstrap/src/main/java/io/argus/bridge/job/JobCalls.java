package io.argus.bridge.job;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.AgentStatus;

/**
 * Scheduled work (Quartz jobs, Spring {@code @Scheduled} methods): each run is a root span of its own
 * and is counted in the job metrics (kind {@code job}: runs, errors, duration per job). See the package
 * {@code io.argus.bridge}.
 */
public final class JobCalls {

    private static volatile JobHooks hooks = JobHooks.NOOP;

    private JobCalls() {
    }

    public static void install(JobHooks implementation) {
        hooks = implementation == null ? JobHooks.NOOP : implementation;
    }

    /**
     * Enters a run: takes whatever context this thread holds off it (a pool thread may carry one from
     * the request that scheduled the job), so that the run never joins another trace, and returns it
     * for {@link #exit}. Returns null, allocating nothing, when the thread holds none.
     */
    public static Object enter() {
        return hooks().enter();
    }

    /** Starts the run's root span, named {@code spanName} and made current; null when not sampled. */
    public static ActiveSpan start(String spanName) {
        return hooks().start(spanName);
    }

    /**
     * Leaves a run started at {@code startNanos}: counts it in the job metrics of ({@code scheduler},
     * {@code job}), ends the span, if any ({@code error} marks both), and puts back the context
     * {@link #enter} took.
     */
    public static void exit(ActiveSpan span, long startNanos, String scheduler, String job, Throwable error,
                            Object previous) {
        hooks().exit(span, startNanos, scheduler, job, error, previous);
    }

    /** The core's hooks; before the core is ready (advice in a class defined early), waits for it. */
    private static JobHooks hooks() {
        JobHooks installed = hooks;
        if (installed == JobHooks.NOOP) {
            AgentStatus.awaitSettled();
            installed = hooks;
        }
        return installed;
    }
}
