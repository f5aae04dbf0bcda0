package io.argus.bridge.state;

/**
 * Implemented by the agent, at load time, by the library classes that plugins declared as owners of
 * {@link ObjectField}s and {@link LongField}s: each such field becomes a real field of the class, and
 * these methods reach it by its slot number. Never implemented by hand.
 */
public interface FieldOwner {

    /** Returned by {@link #argus$getObject} for a slot this class has no field for. */
    Object ABSENT = new Object();

    /** Returned by {@link #argus$getLong} for a slot this class has no field for. */
    long ABSENT_LONG = Long.MIN_VALUE;

    Object argus$getObject(int slot);

    /** False when this class has no field for {@code slot}. */
    boolean argus$setObject(int slot, Object value);

    long argus$getLong(int slot);

    /** False when this class has no field for {@code slot}. */
    boolean argus$setLong(int slot, long value);
}
