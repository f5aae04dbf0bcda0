package io.argus.core.instrument.checked;

/** A library class a probe with usable advice matches. */
public class Greeter {
    public String greet() {
        return "hello";
    }
}
