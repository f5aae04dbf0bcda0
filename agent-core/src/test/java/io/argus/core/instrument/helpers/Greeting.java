package io.argus.core.instrument.helpers;

/** A helper class: it reports the loader it was defined in. */
public final class Greeting extends GreetingBase {
    public static final Greeting INSTANCE = new Greeting();

    @Override
    public String get() {
        return prefix() + Greeting.class.getClassLoader().getName();
    }
}
