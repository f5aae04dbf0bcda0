package io.argus.core.plugin;

import io.argus.bootstrap.handoff.ProbeCandidates;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.matcher.ElementMatcher;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/** One class (or class hierarchy) and the advice to put on its methods. */
public final class TypeProbe {

    private final String pluginName;
    private final String typeName;
    private final boolean hierarchy;
    private final String[] nameHints;
    private final List<MethodAdvice> advice = new ArrayList<MethodAdvice>();
    private final List<String> helpers = new ArrayList<String>();
    private boolean afterGate;

    TypeProbe(String pluginName, String typeName, boolean hierarchy) {
        this(pluginName, typeName, hierarchy, null);
    }

    TypeProbe(String pluginName, String typeName, boolean hierarchy, String[] nameHints) {
        this.pluginName = pluginName;
        this.typeName = typeName;
        this.hierarchy = hierarchy;
        this.nameHints = nameHints;
    }

    /** Inlines the advice class {@code adviceClassName} into the methods {@code methods} selects. */
    public TypeProbe advise(ElementMatcher<? super MethodDescription> methods, String adviceClassName) {
        advice.add(new MethodAdvice(methods, adviceClassName));
        return this;
    }

    /**
     * Names classes of this plugin's jar that the advice needs inside the application: a callback or
     * listener that implements one of the library's interfaces, which neither the bridge (boot loader)
     * nor the agent's loader can do. Before the engine puts advice into a class this probe matches, it
     * defines these classes in that class's loader, once per loader, from the plugin jar's class files,
     * so the advice can name them directly ({@code new}, static calls, {@code instanceof}).
     *
     * <p>A helper may use the JDK, the bridge and the instrumented library, and other helpers of the same
     * probe; never other agent classes, which the application's loader cannot see. List every class,
     * nested and anonymous ones included, super types before their subtypes. Nothing is read or defined
     * until a matching class loads, so a probe whose library is absent costs nothing more. If a helper
     * cannot be defined (a missing class file, a library type that this release lacks, the boot loader),
     * the class is left uninstrumented and the failure is logged.
     */
    public TypeProbe helpers(String... classNames) {
        for (String name : classNames) {
            if (name != null && !helpers.contains(name)) {
                helpers.add(name);
            }
        }
        return this;
    }

    /**
     * Applies this probe only after the start gate opened: the gate never holds its classes (JDK classes
     * that every application loads early, such as executors and threads), and the start-up thread
     * retransforms them once the rest is in force. For advice that only carries a trace context along. A
     * trace that starts before the start-up thread got there applies them on its own thread first, so the
     * work it hands over is already followed.
     */
    public TypeProbe afterGate() {
        afterGate = true;
        return this;
    }

    public boolean isAfterGate() {
        return afterGate;
    }

    /** The helper classes, in definition order; empty for most probes. */
    public List<String> helpers() {
        return Collections.unmodifiableList(helpers);
    }

    public String pluginName() {
        return pluginName;
    }

    /** The exact class name, or for a hierarchy probe the super type's name. */
    public String typeName() {
        return typeName;
    }

    public boolean isHierarchy() {
        return hierarchy;
    }

    /** For a hierarchy probe: strings one of which a candidate's simple name must contain; null for any name. */
    public String[] nameHints() {
        return nameHints == null ? null : nameHints.clone();
    }

    /** Whether the simple name of {@code className} (dotted or internal form) contains one of the hints. */
    public static boolean simpleNameContainsAny(String className, String[] hints) {
        return ProbeCandidates.simpleNameContainsAny(className, hints);
    }

    public List<MethodAdvice> advice() {
        return Collections.unmodifiableList(advice);
    }

    /**
     * Everything that decides what this probe does to a class, as text: the same for the same declaration
     * in another run (ByteBuddy's matchers describe themselves by what they match).
     */
    public String describe() {
        StringBuilder text = new StringBuilder(pluginName).append(' ').append(typeName)
                .append(hierarchy ? " subtypes" : "").append(afterGate ? " after-gate" : "");
        if (nameHints != null) {
            text.append(" hints=").append(Arrays.toString(nameHints));
        }
        text.append(" helpers=").append(helpers);
        for (MethodAdvice one : advice) {
            text.append(" [").append(one.methods).append(" -> ").append(one.adviceClassName).append(']');
        }
        return text.toString();
    }

    public static final class MethodAdvice {
        public final ElementMatcher<? super MethodDescription> methods;
        public final String adviceClassName;

        MethodAdvice(ElementMatcher<? super MethodDescription> methods, String adviceClassName) {
            this.methods = methods;
            this.adviceClassName = adviceClassName;
        }
    }
}
