package io.argus.plugin.spring;

import io.argus.bridge.state.ObjectField;

import java.lang.reflect.Method;

/**
 * The span name of a {@code @Scheduled} method, {@code Scheduled OrderReport.refresh}, made once per
 * scheduled method and kept on its {@code ScheduledMethodRunnable}. A helper class: defined in Spring's
 * class loader.
 */
public final class ScheduledNames {

    static final String FIELD = "spring.scheduledName";

    public static final ObjectField<String> NAME = ObjectField.named(FIELD);

    private ScheduledNames() {
    }

    public static String of(Object runnable, Object target, Method method) {
        String name = NAME.get(runnable);
        if (name == null) {
            name = "Scheduled " + userClassName(target, method) + "." + method.getName();
            NAME.set(runnable, name);
        }
        return name;
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
