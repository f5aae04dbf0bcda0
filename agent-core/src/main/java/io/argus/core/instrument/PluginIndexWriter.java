package io.argus.core.instrument;

import io.argus.bootstrap.handoff.PluginIndex;
import io.argus.core.config.AgentConfig;
import io.argus.core.config.AgentSettings;
import io.argus.core.plugin.ArgusPlugin;
import io.argus.core.plugin.FieldDeclaration;
import io.argus.core.plugin.Probes;
import io.argus.core.plugin.TypeProbe;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.pool.TypePool;

import java.io.File;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.ServiceLoader;

/**
 * Run by each plugin module's build: calls the plugin's own {@code instrument} with the default settings
 * and writes what it declared into {@link PluginIndex#RESOURCE} of the module's classes, the one place the
 * start gate learns a plugin's probed classes and field owners from. It also checks what the declarations
 * name: every advice and helper class must be in the module, and every advice usable
 * ({@link AdviceChecks}), so that a misspelt name fails the build instead of skipping a probe at run time.
 * And it holds the plugin API's boundary: of the agent's own classes, a plugin's may use only the plugin
 * API ({@value #PLUGIN_API}), the bridge ({@value #BRIDGE}) and the plugin's own package.
 *
 * <p>Arguments: the module's classes folder.
 */
public final class PluginIndexWriter {

    static final String PLUGIN_API = "io/argus/core/plugin/";
    static final String BRIDGE = "io/argus/bridge/";
    private static final String AGENT = "io/argus/";
    private static final String PLUGINS = "io/argus/plugin/";

    private PluginIndexWriter() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: PluginIndexWriter <classes folder>");
        }
        File classes = new File(args[0]);
        List<String> problems = new ArrayList<String>();
        String index = write(classes, pluginsIn(classes), problems);
        problems.addAll(outsideThePluginApi(classes));
        if (!problems.isEmpty()) {
            throw new IllegalStateException("plugin declarations in " + classes + " name what is not there:\n  "
                    + join(problems, "\n  "));
        }
        File out = new File(classes, PluginIndex.RESOURCE);
        if (!out.getParentFile().isDirectory() && !out.getParentFile().mkdirs()) {
            throw new IOException("cannot create " + out.getParentFile());
        }
        Writer writer = new OutputStreamWriter(new java.io.FileOutputStream(out), StandardCharsets.UTF_8);
        try {
            writer.write(index);
        } finally {
            writer.close();
        }
    }

    /** The plugins whose classes are in {@code classes} (not those of other jars on the class path). */
    static List<ArgusPlugin> pluginsIn(File classes) {
        List<ArgusPlugin> plugins = new ArrayList<ArgusPlugin>();
        for (ArgusPlugin plugin : ServiceLoader.load(ArgusPlugin.class, Thread.currentThread().getContextClassLoader())) {
            if (new File(classes, plugin.getClass().getName().replace('.', '/') + ".class").isFile()) {
                plugins.add(plugin);
            }
        }
        if (plugins.isEmpty()) {
            throw new IllegalStateException("no " + ArgusPlugin.class.getName() + " service in " + classes);
        }
        return plugins;
    }

    /** The index text of {@code plugins}; what their declarations name that is not in {@code classes} goes to {@code problems}. */
    static String write(File classes, List<ArgusPlugin> plugins, List<String> problems) {
        AgentSettings defaults = new AgentSettings(new AgentConfig(new Properties(),
                Collections.<String, String>emptyMap(), new Properties()));
        TypePool pool = TypePool.Default.of(new ClassFileLocator.Compound(new ClassFileLocator.ForFolder(classes),
                ClassFileLocator.ForClassLoader.of(Thread.currentThread().getContextClassLoader())));
        StringBuilder out = new StringBuilder("# written at build time from the plugin's declarations (its instrument method)\n");
        for (ArgusPlugin plugin : plugins) {
            Probes probes = new Probes(plugin.name(), defaults);
            plugin.instrument(probes);
            out.append("plugin ").append(plugin.name()).append(' ').append(plugin.getClass().getName()).append('\n');
            for (TypeProbe probe : probes.probes()) {
                if (probe.isHierarchy()) {
                    out.append("subtypes ").append(probe.typeName());
                    String[] hints = probe.nameHints();
                    for (int i = 0; hints != null && i < hints.length; i++) {
                        out.append(' ').append(hints[i]);
                    }
                } else {
                    out.append("type ").append(probe.typeName()).append(probe.isAfterGate() ? " after-gate" : "");
                }
                out.append('\n');
                check(classes, pool, plugin.name(), probe, problems);
            }
            for (FieldDeclaration field : probes.fields()) {
                out.append("field ").append(field.ownerClassName()).append(' ').append(field.fieldName())
                        .append(field.isLong() ? " long" : "").append('\n');
            }
            for (String key : probes.typeSettings()) {
                out.append("types-in-setting ").append(key).append('\n');
            }
        }
        return out.toString();
    }

    private static void check(File classes, TypePool pool, String plugin, TypeProbe probe, List<String> problems) {
        for (TypeProbe.MethodAdvice advice : probe.advice()) {
            if (!isIn(classes, advice.adviceClassName)) {
                problems.add(plugin + ": advice class " + advice.adviceClassName + " (probe of " + probe.typeName()
                        + ") is not in the plugin");
            } else if (!AdviceChecks.isUsable(pool, advice.adviceClassName, plugin)) {
                problems.add(plugin + ": advice class " + advice.adviceClassName + " is not usable (see above)");
            }
        }
        for (String helper : probe.helpers()) {
            if (!isIn(classes, helper)) {
                problems.add(plugin + ": helper class " + helper + " (probe of " + probe.typeName()
                        + ") is not in the plugin");
            }
        }
    }

    /**
     * Each reference of the module's classes to an agent class that is neither the plugin API, the bridge nor
     * a plugin's: read from the class files' constant pools (class names and descriptors are stored there).
     */
    static List<String> outsideThePluginApi(File classes) throws IOException {
        List<String> problems = new ArrayList<String>();
        List<File> files = new ArrayList<File>();
        collectClassFiles(classes, files);
        for (File file : files) {
            java.util.Set<String> named = new java.util.TreeSet<String>();
            for (String constant : utf8Constants(java.nio.file.Files.readAllBytes(file.toPath()))) {
                for (int at = constant.indexOf(AGENT); at >= 0; at = constant.indexOf(AGENT, at + 1)) {
                    int end = at;
                    while (end < constant.length() && isNameChar(constant.charAt(end))) {
                        end++;
                    }
                    String name = constant.substring(at, end);
                    if (!name.startsWith(PLUGIN_API) && !name.startsWith(BRIDGE) && !name.startsWith(PLUGINS)) {
                        named.add(name.replace('/', '.'));
                    }
                }
            }
            for (String name : named) {
                problems.add(classes.toPath().relativize(file.toPath()).toString().replace(File.separatorChar, '/')
                        + " uses " + name + ", which is not part of the plugin API (" + PLUGIN_API.replace('/', '.') + "*)");
            }
        }
        return problems;
    }

    /** The UTF-8 entries of a class file's constant pool: its class names, descriptors and signatures among them. */
    static List<String> utf8Constants(byte[] classFile) throws IOException {
        int[] offsets = ConstantPool.offsets(classFile);
        if (offsets == null) {
            throw new IOException("not a class file, or an unknown constant pool tag");
        }
        List<String> constants = new ArrayList<String>();
        for (int i = 1; i < offsets.length - 1; i++) {
            int p = offsets[i];
            if (p != 0 && classFile[p] == 1) {
                int length = ConstantPool.u2(classFile, p + 1);
                constants.add(new java.io.DataInputStream(new java.io.ByteArrayInputStream(classFile, p + 1, length + 2)).readUTF());
            }
        }
        return constants;
    }

    private static boolean isNameChar(char c) {
        return Character.isJavaIdentifierPart(c) || c == '/' || c == '$';
    }

    private static void collectClassFiles(File dir, List<File> out) {
        File[] children = dir.listFiles();
        if (children == null) {
            return;
        }
        for (File child : children) {
            if (child.isDirectory()) {
                collectClassFiles(child, out);
            } else if (child.getName().endsWith(".class")) {
                out.add(child);
            }
        }
    }

    private static boolean isIn(File classes, String className) {
        return new File(classes, className.replace('.', '/') + ".class").isFile();
    }

    private static String join(List<String> parts, String separator) {
        StringBuilder joined = new StringBuilder();
        for (String part : parts) {
            joined.append(joined.length() == 0 ? "" : separator).append(part);
        }
        return joined.toString();
    }
}
