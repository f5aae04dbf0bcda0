package io.argus.core.plugin;

import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.matcher.ElementMatcher;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** One class (or class hierarchy) and the advice to put on its methods. */
public final class TypeProbe {

    private final String pluginName;
    private final String typeName;
    private final boolean hierarchy;
    private final String[] nameHints;
    private final List<MethodAdvice> advice = new ArrayList<MethodAdvice>();

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
        int start = Math.max(className.lastIndexOf('/'), className.lastIndexOf('.')) + 1;
        for (String hint : hints) {
            if (className.indexOf(hint, start) >= 0) {
                return true;
            }
        }
        return false;
    }

    public List<MethodAdvice> advice() {
        return Collections.unmodifiableList(advice);
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
