package io.argus.core.instrument.helpers;

import java.util.function.Supplier;

/** A helper's super class, itself a helper. */
public abstract class GreetingBase implements Supplier<String> {
    protected String prefix() {
        return "hello from ";
    }
}
