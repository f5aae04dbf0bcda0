package io.argus.plugin.spring;

import io.argus.bridge.state.ObjectField;

import java.lang.reflect.Method;

/**
 * The names of a {@code @Scheduled} method: its span's, {@code Scheduled OrderReport.refresh}, and its
 * job's in the job metrics, {@code OrderReport.refresh}; made once per scheduled method and kept on its
 * {@code ScheduledMethodRunnable}. A helper class: defined in Spring's class loader.
 */
public final class ScheduledNames {

    static final String FIELD = "spring.scheduledName";
    /** The scheduler in the job metrics. */
    public static final String SCHEDULER = "spring";

    /** {span name, job name}. */
    public static final ObjectField<String[]> NAMES = ObjectField.named(FIELD);

    private ScheduledNames() {
    }

    /** {span name, job name} of the runnable's method. */
    public static String[] of(Object runnable, Object target, Method method) {
        String[] names = NAMES.get(runnable);
        if (names == null) {
            String job = userClassName(target, method) + "." + method.getName();
            names = new String[] {"Scheduled " + job, job};
            NAMES.set(runnable, names);
        }
        return names;
    }

    /** The bean's own class, not the CGLIB subclass Spring may have made of it ({@code Foo$$SpringCGLIB$$0}). */
    static String userClassName(Object target, Method method) {
        Class<?> type = target != null ? target.getClass() : method.getDeclaringClass();
        String name = type.getName();
        int proxy = name.indexOf("$$");
        if (proxy > 0) {
            name = name.substring(0, proxy);
        }
        return name.substring(name.lastIndexOf('.') + 1);
    }
}
