package io.argus.plugin.spring;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.job.JobCalls;
import net.bytebuddy.asm.Advice;

import java.lang.reflect.Method;

/**
 * Inlined into {@code ScheduledMethodRunnable.run()}: each run of a {@code @Scheduled} method is a
 * root of its own (sampled by the rate), never a child of whatever context the scheduler's thread
 * holds (a pool thread may carry one from the request that started it, or that scheduled the task),
 * and counts in the job metrics of ({@code spring}, {@code Class.method}).
 */
public final class ScheduledRunAdvice {

    private ScheduledRunAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static long enter(@Advice.This Object runnable, @Advice.FieldValue("target") Object target,
                             @Advice.FieldValue("method") Method method,
                             @Advice.Local("argusNames") String[] names,
                             @Advice.Local("argusPrevious") Object previous,
                             @Advice.Local("argusSpan") ActiveSpan span) {
        previous = JobCalls.enter(); // first: exit always puts back what this took
        names = ScheduledNames.of(runnable, target, method);
        span = JobCalls.start(names[0]);
        return System.nanoTime();
    }

    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    public static void exit(@Advice.Enter long start, @Advice.Local("argusNames") String[] names,
                            @Advice.Local("argusPrevious") Object previous, @Advice.Local("argusSpan") ActiveSpan span,
                            @Advice.Thrown Throwable thrown) {
        JobCalls.exit(span, names == null ? 0 : start, ScheduledNames.SCHEDULER, names == null ? null : names[1], thrown,
                previous);
    }
}
