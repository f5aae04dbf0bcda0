package io.argus.plugin.method;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The methods named in {@code argus.trace.methods}: a comma-separated list of
 * {@code fully.qualified.Class#method} or {@code fully.qualified.Class#*} entries. Whitespace
 * around entries and around the {@code #} is ignored, empty entries (a trailing comma) are
 * ignored, and a malformed entry is reported (one message naming it) and skipped, so that the
 * others still apply. Several entries for one class are merged; {@code #*} wins over names.
 */
public final class MethodTargets {

    public static final String KEY = "argus.trace.methods";
    static final String WILDCARD = "*";
    static final String EXPECTED = "expected fully.qualified.Class#method or fully.qualified.Class#*";

    /** Class name to the methods to trace in it; insertion order is the configuration's. */
    private final Map<String, ClassTargets> classes = new LinkedHashMap<String, ClassTargets>();
    private final List<String> errors = new ArrayList<String>();

    private MethodTargets() {
    }

    public static MethodTargets parse(String value) {
        MethodTargets targets = new MethodTargets();
        if (value == null) {
            return targets;
        }
        for (String raw : value.split(",")) {
            String entry = raw.trim();
            if (entry.isEmpty()) {
                continue;
            }
            String problem = targets.add(entry);
            if (problem != null) {
                targets.errors.add("ignoring malformed entry '" + entry + "' in " + KEY + ": " + problem
                        + " (" + EXPECTED + ")");
            }
        }
        return targets;
    }

    /** Adds one entry; returns what is wrong with it, or null. */
    private String add(String entry) {
        int hash = entry.indexOf('#');
        if (hash < 0) {
            return "no '#' between class and method";
        }
        if (entry.indexOf('#', hash + 1) >= 0) {
            return "more than one '#'";
        }
        String className = entry.substring(0, hash).trim();
        String method = entry.substring(hash + 1).trim();
        if (className.isEmpty()) {
            return "no class name";
        }
        if (!isQualifiedName(className)) {
            return "'" + className + "' is not a class name";
        }
        if (method.isEmpty()) {
            return "no method name";
        }
        if (method.equals("<init>") || method.equals("<clinit>")) {
            return "constructors and static initialisers are not traced";
        }
        if (!method.equals(WILDCARD) && !isIdentifier(method)) {
            return "'" + method + "' is not a method name";
        }
        ClassTargets targets = classes.get(className);
        if (targets == null) {
            targets = new ClassTargets(className);
            classes.put(className, targets);
        }
        if (method.equals(WILDCARD)) {
            targets.all = true;
        } else {
            targets.names.add(method);
        }
        return null;
    }

    static boolean isQualifiedName(String name) {
        if (name.startsWith(".") || name.endsWith(".") || name.contains("..")) {
            return false;
        }
        for (String part : name.split("\\.")) {
            if (!isIdentifier(part)) {
                return false;
            }
        }
        return true;
    }

    static boolean isIdentifier(String name) {
        if (name.isEmpty() || !Character.isJavaIdentifierStart(name.charAt(0))) {
            return false;
        }
        for (int i = 1; i < name.length(); i++) {
            if (!Character.isJavaIdentifierPart(name.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    public List<ClassTargets> classes() {
        return Collections.unmodifiableList(new ArrayList<ClassTargets>(classes.values()));
    }

    /** One message per malformed entry, each naming the entry. */
    public List<String> errors() {
        return Collections.unmodifiableList(errors);
    }

    public boolean isEmpty() {
        return classes.isEmpty();
    }

    /** The methods to trace in one class. */
    public static final class ClassTargets {
        private final String className;
        private boolean all;
        private final Set<String> names = new LinkedHashSet<String>();

        ClassTargets(String className) {
            this.className = className;
        }

        public String className() {
            return className;
        }

        /** True for {@code Class#*}: every declared method but constructors and synthetic ones. */
        public boolean allMethods() {
            return all;
        }

        /** The named methods (every overload of each); empty when {@link #allMethods()}. */
        public Set<String> methodNames() {
            return all ? Collections.<String>emptySet() : Collections.unmodifiableSet(names);
        }

        @Override
        public String toString() {
            return all ? className + "#*" : className + "#" + names;
        }
    }
}
