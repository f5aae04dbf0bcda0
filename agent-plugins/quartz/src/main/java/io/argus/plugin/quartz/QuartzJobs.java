package io.argus.plugin.quartz;

import io.argus.bridge.state.ObjectField;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;
import org.quartz.JobKey;
import org.quartz.SchedulerException;

/**
 * A firing's job name ({@code group.name}, Quartz's own {@code JobKey} form) and its error. A helper
 * class: defined in Quartz's class loader.
 */
public final class QuartzJobs {

    static final String ERROR_FIELD = "quartz.error";
    /** The scheduler in the job metrics. */
    public static final String SCHEDULER = "quartz";
    /** What the job threw, from the moment Quartz caught it until the run ends. */
    public static final ObjectField<Throwable> ERROR = ObjectField.named(ERROR_FIELD);

    private QuartzJobs() {
    }

    public static String name(Object context) {
        if (!(context instanceof JobExecutionContext)) {
            return null;
        }
        JobDetail detail = ((JobExecutionContext) context).getJobDetail();
        JobKey key = detail == null ? null : detail.getKey();
        return key == null ? null : key.getGroup() + "." + key.getName();
    }

    public static String spanName(String job) {
        return job == null ? "Quartz job" : "Quartz " + job;
    }

    /**
     * The error to report: what the job threw. Quartz wraps an exception other than its own
     * {@code JobExecutionException} twice (a {@code JobExecutionException} around a
     * {@code SchedulerException}): that one is unwrapped.
     */
    public static Throwable jobError(Throwable jobException) {
        Throwable cause = jobException.getCause();
        if (cause instanceof SchedulerException && cause.getCause() != null) {
            return cause.getCause();
        }
        return jobException;
    }
}
