package io.argus.bridge;

/** Writes one header of a library's outbound request; the counterpart of {@link HeaderGetter}. */
public interface HeaderSetter<C> {

    /** Replaces header {@code name}; a null {@code value} removes it where the library can. */
    void set(C carrier, String name, String value);
}
