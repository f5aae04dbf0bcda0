package io.argus.core.plugin;

import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.matcher.ElementMatchers;

/**
 * Method matchers on parameter types given by name. ByteBuddy's {@code takesArguments(Runnable.class)}
 * describes the loaded class at once, which pulls ByteBuddy's reflection dispatchers (tens of
 * generated classes) onto the application's main thread while plugins declare their probes; a name
 * costs nothing until a class is matched.
 */
public final class ArgumentMatchers {

    private ArgumentMatchers() {
    }

    /** Methods whose parameters are exactly these types, by fully qualified name ({@code java.lang.Runnable}). */
    public static ElementMatcher.Junction<MethodDescription> takesArgumentsNamed(String... typeNames) {
        ElementMatcher.Junction<MethodDescription> matcher = ElementMatchers.takesArguments(typeNames.length);
        for (int i = 0; i < typeNames.length; i++) {
            matcher = matcher.and(takesArgumentNamed(i, typeNames[i]));
        }
        return matcher;
    }

    /** Methods whose parameter {@code index} is of the type named {@code typeName}. */
    public static ElementMatcher.Junction<MethodDescription> takesArgumentNamed(int index, String typeName) {
        return ElementMatchers.takesArgument(index, ElementMatchers.named(typeName));
    }
}
