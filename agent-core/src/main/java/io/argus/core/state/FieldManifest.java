package io.argus.core.state;

import io.argus.core.AgentLog;
import io.argus.core.plugin.FieldDeclaration;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;

/**
 * The fields each plugin declares, read without loading the plugin, so that owner classes get their
 * fields as they load even before the plugins themselves are loaded. A plugin's jar holds its own in
 * {@value #RESOURCE}: a {@code plugin <name>} line, then one line per field,
 * {@code <owner class> <field name> [long]}, as its {@code Probes.field}/{@code longField} calls declare
 * them; {@code #} starts a comment. The distribution joins them into one file, {@value #JOINED} under the
 * agent's folder, read without opening a jar; without it (a test agent) they are read from the jars. A
 * malformed line is reported and skipped.
 */
public final class FieldManifest {

    public static final String RESOURCE = "META-INF/argus/fields";
    public static final String JOINED = "lib/fields";

    /** Says whether a plugin is switched on. */
    public interface PluginFilter {
        boolean enabled(String pluginName);
    }

    private FieldManifest() {
    }

    /** The declarations of every enabled plugin: from {@code agentHome}'s joined file, else from {@code loader}'s jars. */
    public static List<FieldDeclaration> read(File agentHome, ClassLoader loader, PluginFilter plugins) {
        File joined = new File(agentHome, JOINED);
        if (joined.isFile()) {
            try {
                return read(joined.toURI().toURL(), plugins);
            } catch (IOException e) {
                AgentLog.warn("cannot read " + joined + "; reading the plugins' own manifests", e);
            }
        }
        return read(loader, plugins);
    }

    /** The declarations of every enabled plugin on {@code loader}'s class path, in class path order. */
    static List<FieldDeclaration> read(ClassLoader loader, PluginFilter plugins) {
        List<FieldDeclaration> declarations = new ArrayList<FieldDeclaration>();
        try {
            Enumeration<URL> manifests = loader.getResources(RESOURCE);
            while (manifests.hasMoreElements()) {
                URL manifest = manifests.nextElement();
                try {
                    declarations.addAll(read(manifest, plugins));
                } catch (IOException e) {
                    AgentLog.warn("cannot read " + manifest + "; its plugin's fields live in the map", e);
                }
            }
        } catch (IOException e) {
            AgentLog.warn("cannot list the plugins' " + RESOURCE + "; their fields live in the map", e);
        }
        return declarations;
    }

    /** The declarations of one manifest (one plugin's, or several joined); none of a switched-off plugin. */
    public static List<FieldDeclaration> read(URL manifest, PluginFilter plugins) throws IOException {
        return parse(manifest.toString(), lines(manifest), plugins);
    }

    static List<FieldDeclaration> parse(String source, List<String> lines, PluginFilter plugins) {
        List<FieldDeclaration> declarations = new ArrayList<FieldDeclaration>();
        String plugin = null;
        boolean enabled = false;
        for (String raw : lines) {
            int hash = raw.indexOf('#');
            String line = (hash >= 0 ? raw.substring(0, hash) : raw).trim();
            if (line.isEmpty()) {
                continue;
            }
            String[] parts = line.split("\\s+");
            if (parts[0].equals("plugin") && parts.length == 2) {
                plugin = parts[1];
                enabled = plugins.enabled(plugin);
            } else if (plugin != null && (parts.length == 2 || (parts.length == 3 && parts[2].equals("long")))) {
                if (enabled) {
                    declarations.add(new FieldDeclaration(parts[0], parts[1], parts.length == 3));
                }
            } else {
                AgentLog.warn(source + ": '" + raw + "' is not " + (plugin == null ? "'plugin <name>'"
                        : "'<owner class> <field name> [long]'") + "; skipped");
            }
        }
        return declarations;
    }

    private static List<String> lines(URL manifest) throws IOException {
        List<String> lines = new ArrayList<String>();
        BufferedReader in = new BufferedReader(new InputStreamReader(manifest.openStream(), StandardCharsets.UTF_8));
        try {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                lines.add(line);
            }
        } finally {
            in.close();
        }
        return lines;
    }
}
