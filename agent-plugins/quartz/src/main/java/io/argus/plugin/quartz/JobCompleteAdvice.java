package io.argus.plugin.quartz;

import net.bytebuddy.asm.Advice;

/** {@code JobRunShell.notifyJobListenersComplete(context, jobException)}: the job has run; note what it threw. */
public final class JobCompleteAdvice {

    private JobCompleteAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.This Object shell, @Advice.Argument(1) Throwable jobException) {
        if (jobException != null) {
            QuartzJobs.ERROR.set(shell, QuartzJobs.jobError(jobException));
        }
    }
}
