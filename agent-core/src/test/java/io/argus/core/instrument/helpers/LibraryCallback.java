package io.argus.core.instrument.helpers;

/** A helper that implements a library type, so it can only be defined where that type is visible. */
public final class LibraryCallback implements LibraryApi {
    @Override
    public String call() {
        return "called";
    }
}
