package io.argus.bridge.state;

import io.argus.bridge.AgentStatus;

import java.util.concurrent.ConcurrentHashMap;

/**
 * State the agent keeps on an object of the application (a request, a connection, a task), typed.
 * Where a plugin declared the object's class as the field's owner and the agent saw the class load,
 * it is a real field of the object: a read or write is a type check and a field access. Elsewhere
 * (a class loaded before the agent was ready, a subclass nobody declared) it lives in a bounded map
 * keyed weakly by the object's identity, without a global lock.
 *
 * <p>Advice reaches a field through a constant of a helper class:
 * {@code static final ObjectField<Call> CALL = ObjectField.named("jetty-client.call");}, the name being
 * one the plugin declared with {@code Probes.field}.
 */
public abstract class ObjectField<T> {

    private static final ConcurrentHashMap<String, ObjectField<?>> DECLARED = new ConcurrentHashMap<String, ObjectField<?>>();

    private final String name;
    private final int slot;

    protected ObjectField(String name, int slot) {
        this.name = name;
        this.slot = slot;
    }

    /** The field a plugin declared under {@code name}. */
    @SuppressWarnings("unchecked")
    public static <T> ObjectField<T> named(String name) {
        ObjectField<?> field = DECLARED.get(name);
        if (field == null) {
            AgentStatus.awaitSettled(); // a helper of a class defined before the core declared its fields
            field = DECLARED.get(name);
        }
        if (field == null) {
            throw new IllegalArgumentException("no plugin declared the object field " + name);
        }
        return (ObjectField<T>) field;
    }

    /** Called by the core for every declared field, before any advice runs. */
    public static void declare(ObjectField<?> field) {
        DECLARED.put(field.name, field);
    }

    /** The value on {@code owner}; null when none is set. */
    @SuppressWarnings("unchecked")
    public final T get(Object owner) {
        if (owner instanceof FieldOwner) {
            Object value = ((FieldOwner) owner).argus$getObject(slot);
            if (value != FieldOwner.ABSENT) {
                return (T) value;
            }
        }
        return owner == null ? null : (T) mappedGet(owner);
    }

    /** Sets the value on {@code owner}; null clears it. */
    public final void set(Object owner, T value) {
        if (owner instanceof FieldOwner && ((FieldOwner) owner).argus$setObject(slot, value)) {
            return;
        }
        if (owner != null) {
            mappedSet(owner, value);
        }
    }

    /**
     * Sets the value only where it is a real field of {@code owner}: false, and nothing kept, where it
     * would go to the map. For a value the advice can find again, or do without, on an object whose class
     * loaded before the agent was up: a write there would cost the map a lock and an entry.
     */
    public final boolean setIfRealField(Object owner, T value) {
        return owner instanceof FieldOwner && ((FieldOwner) owner).argus$setObject(slot, value);
    }

    /** Returns the value on {@code owner} and clears it. */
    public final T remove(Object owner) {
        if (owner instanceof FieldOwner) {
            FieldOwner fields = (FieldOwner) owner;
            Object value = fields.argus$getObject(slot);
            if (value != FieldOwner.ABSENT) {
                if (value != null) {
                    fields.argus$setObject(slot, null);
                }
                @SuppressWarnings("unchecked") T typed = (T) value;
                return typed;
            }
        }
        @SuppressWarnings("unchecked") T mapped = owner == null ? null : (T) mappedRemove(owner);
        return mapped;
    }

    public final String name() {
        return name;
    }

    /** The map behind the objects without the real field. */
    protected abstract Object mappedGet(Object owner);

    protected abstract void mappedSet(Object owner, Object value);

    protected abstract Object mappedRemove(Object owner);
}
