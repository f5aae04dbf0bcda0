package io.argus.plugin.quartz;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.job.JobCalls;
import net.bytebuddy.asm.Advice;

/**
 * {@code JobRunShell.run()}: one firing of a job on a worker thread, a root of its own, never in a
 * context the thread held before; the job's error, if any, was noted by {@link JobCompleteAdvice}.
 */
public final class JobRunAdvice {

    private JobRunAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static long enter(@Advice.FieldValue("jec") Object context, @Advice.Local("argusJob") String[] job,
                             @Advice.Local("argusPrevious") Object previous, @Advice.Local("argusSpan") ActiveSpan span) {
        previous = JobCalls.enter(); // first: exit always puts back what this took
        job = QuartzJobs.names(context);
        if (job != null) {
            span = JobCalls.start(job[1]);
        }
        return System.nanoTime();
    }

    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    public static void exit(@Advice.This Object shell, @Advice.Enter long start, @Advice.Local("argusJob") String[] job,
                            @Advice.Local("argusPrevious") Object previous, @Advice.Local("argusSpan") ActiveSpan span,
                            @Advice.Thrown Throwable thrown) {
        Throwable failed = QuartzJobs.ERROR.remove(shell);
        JobCalls.exit(span, job == null ? 0 : start, QuartzJobs.SCHEDULER, job == null ? null : job[0],
                thrown != null ? thrown : failed, previous);
    }
}
