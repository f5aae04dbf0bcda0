package io.argus.core.instrument.helpers;

/** Stands for a library interface that a helper implements; only the test's own loader sees it. */
public interface LibraryApi {
    String call();
}
