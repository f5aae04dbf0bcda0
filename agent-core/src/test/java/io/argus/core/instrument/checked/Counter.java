package io.argus.core.instrument.checked;

/** A library class a probe with unusable advice matches. */
public class Counter {
    public int next() {
        return 1;
    }
}
