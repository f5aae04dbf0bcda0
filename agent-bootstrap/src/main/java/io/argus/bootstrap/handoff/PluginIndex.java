package io.argus.bootstrap.handoff;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * What each plugin probes, written at build time from the plugin's own declarations (its
 * {@code instrument} method) into its jar as {@value #RESOURCE}, and joined by the distribution into
 * {@value #JOINED}. Premain reads it, without loading any plugin, to know which classes must wait for the
 * engine. One line per fact:
 * <pre>
 * plugin jetty io.argus.plugin.jetty.JettyPlugin   (its name, then its class; no class: found by ServiceLoader)
 * type org.eclipse.jetty.server.Server
 * type java.lang.Thread after-gate
 * subtypes java.sql.Statement Statement          (super type, then name hints; none: any name)
 * field org.eclipse.jetty.server.Request jetty.span
 * field org.eclipse.jetty.server.Request jetty.start long
 * types-in-setting argus.trace.methods           (classes named in a setting: Class#method,...)
 * </pre>
 */
public final class PluginIndex {

    public static final String RESOURCE = "META-INF/argus/probes";
    public static final String JOINED = "lib/probes";

    private final List<Plugin> plugins;

    private PluginIndex(List<Plugin> plugins) {
        this.plugins = plugins;
    }

    public static PluginIndex of(List<Plugin> plugins) {
        return new PluginIndex(new ArrayList<Plugin>(plugins));
    }

    public List<Plugin> plugins() {
        return Collections.unmodifiableList(plugins);
    }

    /** Parses the lines of one plugin's index or of several joined; a malformed line is an error. */
    public static PluginIndex parse(String source, InputStream in) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, "UTF-8"));
        List<Plugin> plugins = new ArrayList<Plugin>();
        Plugin current = null;
        int number = 0;
        for (String raw = reader.readLine(); raw != null; raw = reader.readLine()) {
            number++;
            int hash = raw.indexOf('#');
            String line = (hash >= 0 ? raw.substring(0, hash) : raw).trim();
            if (line.isEmpty()) {
                continue;
            }
            String[] parts = words(line);
            String kind = parts[0];
            if (kind.equals("plugin") && (parts.length == 2 || parts.length == 3)) {
                current = new Plugin(parts[1], parts.length == 3 ? parts[2] : null);
                plugins.add(current);
                continue;
            }
            if (current == null) {
                throw malformed(source, number, raw, "a 'plugin <name>' line first");
            }
            if (kind.equals("type") && (parts.length == 2 || (parts.length == 3 && parts[2].equals("after-gate")))) {
                (parts.length == 3 ? current.afterGateTypes : current.types).add(parts[1]);
            } else if (kind.equals("subtypes") && parts.length >= 2) {
                String[] hints = new String[parts.length - 2];
                System.arraycopy(parts, 2, hints, 0, hints.length);
                current.subtypes.add(new Subtypes(parts[1], hints));
            } else if (kind.equals("field") && (parts.length == 3 || (parts.length == 4 && parts[3].equals("long")))) {
                current.fields.add(new Field(parts[1], parts[2], parts.length == 4));
            } else if (kind.equals("types-in-setting") && parts.length == 2) {
                current.typeSettings.add(parts[1]);
            } else {
                throw malformed(source, number, raw, "type, subtypes, field or types-in-setting");
            }
        }
        return new PluginIndex(plugins);
    }

    /** The words of a trimmed line, split at runs of spaces and tabs (premain loads no regular expressions). */
    static String[] words(String line) {
        List<String> words = new ArrayList<String>(4);
        int i = 0;
        while (i < line.length()) {
            while (i < line.length() && Character.isWhitespace(line.charAt(i))) {
                i++;
            }
            int start = i;
            while (i < line.length() && !Character.isWhitespace(line.charAt(i))) {
                i++;
            }
            if (i > start) {
                words.add(line.substring(start, i));
            }
        }
        return words.toArray(new String[0]);
    }

    private static IOException malformed(String source, int number, String line, String expected) {
        return new IOException(source + ":" + number + ": '" + line + "' is not " + expected);
    }

    /** Whether every plugin's line names its class: the core then loads them by name, not by ServiceLoader. */
    public boolean namesClasses() {
        for (Plugin plugin : plugins) {
            if (plugin.className == null) {
                return false;
            }
        }
        return !plugins.isEmpty();
    }

    /**
     * The classes that must not run before the engine is ready, of the plugins {@code config} leaves on:
     * every probed type (but the after-gate ones, which the gate never holds), every field owner but the JDK's, and the classes
     * named in the settings a plugin takes its targets from.
     */
    public ProbeCandidates candidates(ConfigSources config) {
        ProbeCandidates.Builder candidates = ProbeCandidates.builder();
        for (Plugin plugin : plugins) {
            if (!plugin.enabled(config)) {
                continue;
            }
            for (String type : plugin.types) {
                candidates.type(type);
            }
            for (Subtypes subtypes : plugin.subtypes) {
                candidates.subtypesOf(subtypes.superType, subtypes.hints);
            }
            for (Field field : plugin.fields) {
                // the JDK's owners (a ForkJoinTask) are not held: their fields serve traced requests only, and
                // holding them would stall the JDK's own start-up work; loaded early, they keep state in the map
                if (!IgnoredTypes.isJdkClass(field.owner)) {
                    candidates.type(field.owner);
                }
            }
            for (String key : plugin.typeSettings) {
                for (String type : typesIn(config.raw(key))) {
                    candidates.type(type);
                }
            }
        }
        return candidates.build();
    }

    /** The class names of a {@code Class#method,Class#*} setting. */
    static List<String> typesIn(String value) {
        List<String> types = new ArrayList<String>();
        if (value == null) {
            return types;
        }
        for (String entry : value.split(",")) { // a one-character split: no regular expression
            int hash = entry.indexOf('#');
            String type = (hash >= 0 ? entry.substring(0, hash) : entry).trim();
            if (!type.isEmpty()) {
                types.add(type);
            }
        }
        return types;
    }

    /** One plugin's entries. */
    public static final class Plugin {
        public final String name;
        /** The plugin's class, which the core loads by this name; null in an index written without it. */
        public final String className;
        public final List<String> types = new ArrayList<String>();
        public final List<String> afterGateTypes = new ArrayList<String>();
        public final List<Subtypes> subtypes = new ArrayList<Subtypes>();
        public final List<Field> fields = new ArrayList<Field>();
        public final List<String> typeSettings = new ArrayList<String>();

        Plugin(String name, String className) {
            this.name = name;
            this.className = className;
        }

        /** As the core decides it: {@code argus.plugin.<name>.enabled}, on unless false, no or off. */
        boolean enabled(ConfigSources config) {
            String value = config.raw("argus.plugin." + name + ".enabled");
            if (value == null) {
                return true;
            }
            String v = value.toLowerCase(Locale.ROOT);
            return !(v.equals("false") || v.equals("no") || v.equals("off"));
        }
    }

    public static final class Subtypes {
        public final String superType;
        public final String[] hints;

        Subtypes(String superType, String[] hints) {
            this.superType = superType;
            this.hints = hints;
        }
    }

    public static final class Field {
        public final String owner;
        public final String name;
        public final boolean isLong;

        Field(String owner, String name, boolean isLong) {
            this.owner = owner;
            this.name = name;
            this.isLong = isLong;
        }
    }
}
