package io.argus.bridge;

/**
 * Reads one header of a library's request object. A plugin implements it once per library, as a
 * helper class with a shared instance, so the propagation logic itself is written once.
 */
public interface HeaderGetter<C> {

    /** The first value of header {@code name} (case-insensitive), or null. */
    String get(C carrier, String name);
}
