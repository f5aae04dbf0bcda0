package io.argus.testing.references;

import io.argus.core.config.AgentConfig;
import io.argus.core.config.AgentSettings;
import io.argus.core.plugin.ArgusPlugin;
import io.argus.core.plugin.Probes;
import io.argus.core.plugin.TypeProbe;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.pool.TypePool;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;

/**
 * Checks a plugin's advice against one version of its library, as it would be woven into it: for every
 * probe whose target type that version has, and every advice of it whose method matcher selects one of
 * that type's methods there, each type, method and field the advice and the probe's helper classes
 * name in the library must exist there (in the type or one of its super types), so that a renamed or
 * removed library method fails a test rather than a class load in an application. Types of the JDK, the
 * agent and ByteBuddy are not the library's and are not checked.
 */
public final class LibraryReferences {

    private final Path pluginClasses;
    private final List<Reference.Site> sites = new ArrayList<>();

    private LibraryReferences(Path pluginClasses) {
        this.pluginClasses = pluginClasses;
    }

    /** The probes of the plugins whose classes are in {@code pluginClasses}, as {@code instrument} declares them. */
    public static LibraryReferences of(Path pluginClasses) {
        LibraryReferences references = new LibraryReferences(pluginClasses);
        AgentSettings defaults = new AgentSettings(new AgentConfig(new Properties(), Map.of(), new Properties()));
        for (ArgusPlugin plugin : pluginsIn(pluginClasses)) {
            Probes probes = new Probes(plugin.name(), defaults);
            plugin.instrument(probes);
            for (TypeProbe probe : probes.probes()) {
                references.sites.add(new Reference.Site(plugin.name(), probe.typeName(), probe.isHierarchy(),
                        probe.advice(), probe.helpers()));
            }
        }
        if (references.sites.isEmpty()) {
            throw new IllegalStateException("no plugin with probes in " + pluginClasses);
        }
        return references;
    }

    /**
     * The plugins the module's own service file names (other plugins' jars on the class path, relocated as they
     * ship, are not instantiated).
     */
    private static List<ArgusPlugin> pluginsIn(Path pluginClasses) {
        Path services = pluginClasses.resolve("META-INF/services/" + ArgusPlugin.class.getName());
        List<ArgusPlugin> plugins = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(services)) {
                String name = line.replaceAll("#.*", "").trim();
                if (!name.isEmpty()) {
                    plugins.add((ArgusPlugin) Class.forName(name).getDeclaredConstructor().newInstance());
                }
            }
        } catch (IOException | ReflectiveOperationException e) {
            throw new IllegalStateException("the plugins of " + services, e);
        }
        return plugins;
    }

    /**
     * What does not resolve in the library made of {@code jars}: one line per missing type, method or field,
     * naming the probe and the advice or helper class that uses it. Empty when everything resolves.
     */
    public List<String> problems(String version, List<Path> jars) {
        try (ClassFiles library = new ClassFiles(jars)) {
            List<String> problems = new ArrayList<>();
            int applicable = 0;
            for (Reference.Site site : sites) {
                // only the advice whose methods this version's type has goes into it
                List<String> classes = new ArrayList<>();
                for (TypeProbe.MethodAdvice advice : site.advice()) {
                    // a hierarchy probe's advice goes into subtypes, whose methods its super type may not declare
                    if (site.hierarchy() ? library.has(internal(site.targetType()))
                            : library.selectsAny(internal(site.targetType()), advice.methods)) {
                        classes.add(advice.adviceClassName);
                    }
                }
                if (classes.isEmpty()) {
                    continue;
                }
                applicable++;
                for (String className : withTheHelpersTheyUse(classes, site.helpers())) {
                    for (Reference reference : Reference.readAll(read(pluginClasses, className))) {
                        String missing = reference.missingIn(library);
                        if (missing != null) {
                            problems.add(version + ": " + site.plugin() + " probe of " + site.targetType() + ": "
                                    + className + " uses " + missing);
                        }
                    }
                }
            }
            if (applicable == 0) {
                problems.add(version + ": no probe of the plugin applies to any type of these jars " + jars);
            }
            return problems;
        }
    }

    /** The classes, and the helpers of the probe that they use, directly or through other helpers. */
    private List<String> withTheHelpersTheyUse(List<String> advice, List<String> helpers) {
        List<String> used = new ArrayList<>(advice);
        for (int i = 0; i < used.size(); i++) {
            for (String named : Reference.classNames(read(pluginClasses, used.get(i)))) {
                String dotted = named.replace('/', '.');
                if (helpers.contains(dotted) && !used.contains(dotted)) {
                    used.add(dotted);
                }
            }
        }
        return used;
    }

    private static byte[] read(Path classes, String className) {
        try {
            return Files.readAllBytes(classes.resolve(internal(className) + ".class"));
        } catch (IOException e) {
            throw new UncheckedIOException("class " + className + " of the plugin", e);
        }
    }

    static String internal(String className) {
        return className.replace('.', '/');
    }

    /** Class files by internal name, from a library's jars, then the JDK's. */
    static final class ClassFiles implements AutoCloseable {
        private final List<JarFile> jars = new ArrayList<>();
        private final Map<String, ClassShape> shapes = new HashMap<>();
        private TypePool pool;

        ClassFiles(List<Path> paths) {
            try {
                for (Path path : paths) {
                    jars.add(new JarFile(path.toFile()));
                }
            } catch (IOException e) {
                close();
                throw new UncheckedIOException(e);
            }
        }

        boolean has(String internalName) {
            return shape(internalName) != null;
        }

        /** Whether the type is here and {@code methods} selects one of the methods it declares. */
        boolean selectsAny(String internalName, ElementMatcher<? super MethodDescription> methods) {
            if (!has(internalName)) {
                return false;
            }
            TypePool.Resolution type = pool().describe(internalName.replace('/', '.'));
            return type.isResolved() && !type.resolve().getDeclaredMethods().filter(methods).isEmpty();
        }

        private TypePool pool() {
            if (pool == null) {
                List<ClassFileLocator> locators = new ArrayList<>();
                for (JarFile jar : jars) {
                    locators.add(new ClassFileLocator.ForJarFile(jar));
                }
                locators.add(ClassFileLocator.ForClassLoader.of(ClassLoader.getPlatformClassLoader()));
                pool = TypePool.Default.of(new ClassFileLocator.Compound(locators));
            }
            return pool;
        }

        /** The type's shape, from the library's jars or the JDK; null when neither has it. */
        ClassShape shape(String internalName) {
            if (shapes.containsKey(internalName)) {
                return shapes.get(internalName);
            }
            ClassShape shape = null;
            try {
                for (JarFile jar : jars) {
                    ZipEntry entry = jar.getEntry(internalName + ".class");
                    if (entry != null) {
                        try (InputStream in = jar.getInputStream(entry)) {
                            shape = ClassShape.read(in.readAllBytes());
                        }
                        break;
                    }
                }
                if (shape == null) {
                    try (InputStream in = ClassLoader.getPlatformClassLoader().getResourceAsStream(internalName + ".class")) {
                        if (in != null) {
                            shape = ClassShape.read(in.readAllBytes());
                        }
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            shapes.put(internalName, shape);
            return shape;
        }

        /** Whether the type or a super type declares the member (name and descriptor). */
        boolean declares(String owner, String name, String descriptor, boolean method) {
            Set<String> seen = new LinkedHashSet<>();
            List<String> pending = new ArrayList<>(List.of(owner));
            while (!pending.isEmpty()) {
                String type = pending.remove(pending.size() - 1);
                if (!seen.add(type)) {
                    continue;
                }
                ClassShape shape = shape(type);
                if (shape == null) {
                    continue;
                }
                if ((method ? shape.methods() : shape.fields()).contains(name + descriptor)) {
                    return true;
                }
                if (shape.superName() != null) {
                    pending.add(shape.superName());
                }
                pending.addAll(shape.interfaces());
            }
            return false;
        }

        @Override
        public void close() {
            for (JarFile jar : jars) {
                try {
                    jar.close();
                } catch (IOException ignored) {
                    // read only
                }
            }
        }
    }
}
