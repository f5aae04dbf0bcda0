package io.argus.bridge.state;

import io.argus.bridge.AgentStatus;

import java.util.concurrent.ConcurrentHashMap;

/**
 * As {@link ObjectField}, for a {@code long} (a start time): on a class with the real field nothing
 * is boxed, so an untraced request can keep its start time on a library object without allocating.
 * 0 means unset.
 */
public abstract class LongField {

    private static final ConcurrentHashMap<String, LongField> DECLARED = new ConcurrentHashMap<String, LongField>();

    private final String name;
    private final int slot;

    protected LongField(String name, int slot) {
        this.name = name;
        this.slot = slot;
    }

    /** The field a plugin declared under {@code name}. */
    public static LongField named(String name) {
        LongField field = DECLARED.get(name);
        if (field == null) {
            AgentStatus.awaitSettled(); // a helper of a class defined before the core declared its fields
            field = DECLARED.get(name);
        }
        if (field == null) {
            throw new IllegalArgumentException("no plugin declared the long field " + name);
        }
        return field;
    }

    /** Called by the core for every declared field, before any advice runs. */
    public static void declare(LongField field) {
        DECLARED.put(field.name, field);
    }

    /** The value on {@code owner}; 0 when none is set. */
    public final long get(Object owner) {
        if (owner instanceof FieldOwner) {
            long value = ((FieldOwner) owner).argus$getLong(slot);
            if (value != FieldOwner.ABSENT_LONG) {
                return value;
            }
        }
        return owner == null ? 0 : mappedGet(owner);
    }

    /** Sets the value on {@code owner}; 0 clears it. */
    public final void set(Object owner, long value) {
        if (owner instanceof FieldOwner && ((FieldOwner) owner).argus$setLong(slot, value)) {
            return;
        }
        if (owner != null) {
            mappedSet(owner, value);
        }
    }

    /** Returns the value on {@code owner} (0 when none) and clears it. */
    public final long remove(Object owner) {
        if (owner instanceof FieldOwner) {
            FieldOwner fields = (FieldOwner) owner;
            long value = fields.argus$getLong(slot);
            if (value != FieldOwner.ABSENT_LONG) {
                if (value != 0) {
                    fields.argus$setLong(slot, 0);
                }
                return value;
            }
        }
        return owner == null ? 0 : mappedRemove(owner);
    }

    public final String name() {
        return name;
    }

    protected abstract long mappedGet(Object owner);

    protected abstract void mappedSet(Object owner, long value);

    protected abstract long mappedRemove(Object owner);
}
