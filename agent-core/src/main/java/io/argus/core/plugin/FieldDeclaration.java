package io.argus.core.plugin;

import io.argus.bootstrap.handoff.IgnoredTypes;

/** A field a plugin wants on the objects of one library class: see {@link Probes#field}. */
public final class FieldDeclaration {

    private final String ownerClassName;
    private final String fieldName;
    private final boolean isLong;

    public FieldDeclaration(String ownerClassName, String fieldName, boolean isLong) {
        this.ownerClassName = ownerClassName;
        this.fieldName = fieldName;
        this.isLong = isLong;
    }

    public String ownerClassName() {
        return ownerClassName;
    }

    public String fieldName() {
        return fieldName;
    }

    public boolean isLong() {
        return isLong;
    }

    /** Whether the owner is a class of the JDK, such as {@code java.util.concurrent.ForkJoinTask}. */
    public boolean ownerIsJdkClass() {
        return isJdkClass(ownerClassName);
    }

    public static boolean isJdkClass(String className) {
        return IgnoredTypes.isJdkClass(className);
    }

    @Override
    public boolean equals(Object other) {
        if (!(other instanceof FieldDeclaration)) {
            return false;
        }
        FieldDeclaration that = (FieldDeclaration) other;
        return isLong == that.isLong && ownerClassName.equals(that.ownerClassName) && fieldName.equals(that.fieldName);
    }

    @Override
    public int hashCode() {
        return (ownerClassName.hashCode() * 31 + fieldName.hashCode()) * 2 + (isLong ? 1 : 0);
    }
}
