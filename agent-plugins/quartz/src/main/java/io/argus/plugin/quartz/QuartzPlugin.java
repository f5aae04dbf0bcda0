package io.argus.plugin.quartz;

import io.argus.core.plugin.ArgusPlugin;
import io.argus.core.plugin.Probes;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * Quartz 2.x: each run of a job is a root INTERNAL span of its own, {@code Quartz <group>.<name>}, and
 * counts in the job metrics of ({@code quartz}, {@code <group>.<name>}): runs, errors, duration.
 * {@code JobRunShell.run()} runs one firing on a worker thread (the job and its listeners); Quartz
 * catches what the job throws and hands it to {@code notifyJobListenersComplete}, where it is noted.
 */
public final class QuartzPlugin implements ArgusPlugin {

    static final String RUN_SHELL = "org.quartz.core.JobRunShell";
    private static final String ADVICE = "io.argus.plugin.quartz.";

    @Override
    public String name() {
        return "quartz";
    }

    @Override
    public void instrument(Probes probes) {
        probes.field(RUN_SHELL, QuartzJobs.ERROR_FIELD);
        probes.type(RUN_SHELL)
                .helpers(ADVICE + "QuartzJobs")
                .advise(named("run").and(takesArguments(0)), ADVICE + "JobRunAdvice")
                .advise(named("notifyJobListenersComplete").and(takesArguments(2)), ADVICE + "JobCompleteAdvice");
    }
}
