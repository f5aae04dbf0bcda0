package io.argus.plugin.quartz;

import io.argus.bridge.state.ObjectField;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;
import org.quartz.JobKey;
import org.quartz.SchedulerException;

import java.util.concurrent.ConcurrentHashMap;

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

    /** {job name, span name} per job key, made once: a firing looks them up without allocating. */
    private static final ConcurrentHashMap<JobKey, String[]> NAMES = new ConcurrentHashMap<JobKey, String[]>();
    private static final int MAX_NAMES = 10_000;

    /** {@code {group.name, "Quartz group.name"}} of the firing's job; null when it has none. */
    public static String[] names(Object context) {
        if (!(context instanceof JobExecutionContext)) {
            return null;
        }
        JobDetail detail = ((JobExecutionContext) context).getJobDetail();
        JobKey key = detail == null ? null : detail.getKey();
        if (key == null) {
            return null;
        }
        String[] names = NAMES.get(key);
        if (names == null) {
            String job = key.getGroup() + "." + key.getName();
            names = new String[] {job, "Quartz " + job};
            if (NAMES.size() < MAX_NAMES) {
                NAMES.put(key, names);
            }
        }
        return names;
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
