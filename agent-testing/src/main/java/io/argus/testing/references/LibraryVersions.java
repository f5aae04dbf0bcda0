package io.argus.testing.references;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** The versions of a library a plugin claims, each a list of jars, and the check of the plugin's advice against each. */
public final class LibraryVersions {

    private final Map<String, List<Path>> versions = new LinkedHashMap<>();
    private final List<Path> shared = new ArrayList<>();

    public static LibraryVersions create() {
        return new LibraryVersions();
    }

    /** Each sub-folder of {@code root} (e.g. {@code target/jetty/12.0.0}) is a version made of the jars in it. */
    public LibraryVersions folders(Path root) {
        return folders(root, "");
    }

    /** As {@link #folders(Path)}, for the sub-folders whose names start with {@code prefix} only. */
    public LibraryVersions folders(Path root, String prefix) {
        try (Stream<Path> dirs = Files.list(root)) {
            dirs.filter(Files::isDirectory).filter(dir -> dir.getFileName().toString().startsWith(prefix)).sorted()
                    .forEach(dir -> folder(dir.getFileName().toString(), dir));
        } catch (IOException e) {
            throw new UncheckedIOException("the library versions under " + root, e);
        }
        return this;
    }

    /** One version: the jars in {@code dir}. */
    public LibraryVersions folder(String version, Path dir) {
        try (Stream<Path> jars = Files.list(dir)) {
            versions.put(version, jars.filter(p -> p.toString().endsWith(".jar")).sorted().toList());
        } catch (IOException e) {
            throw new UncheckedIOException("the jars of " + version + " in " + dir, e);
        }
        return this;
    }

    /** One version: the jars of this JVM's class path whose file names start with one of {@code prefixes}. */
    public LibraryVersions classPath(String version, String... prefixes) {
        versions.put(version, classPathJars(version, prefixes));
        return this;
    }

    /**
     * Jars of this JVM's class path that every version runs with, as the plugin's ITs run them: the library's own
     * dependencies (Netty under Lettuce), whose file names start with one of {@code prefixes}.
     */
    public LibraryVersions withEach(String... prefixes) {
        shared.addAll(classPathJars("the jars every version runs with", prefixes));
        return this;
    }

    private static List<Path> classPathJars(String what, String... prefixes) {
        List<Path> jars = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            String name = Paths.get(entry).getFileName().toString();
            if (name.endsWith(".jar") && Stream.of(prefixes).anyMatch(name::startsWith)) {
                jars.add(Paths.get(entry));
            }
        }
        assertThat(jars).as("jars of %s on the class path", what).isNotEmpty();
        return jars;
    }

    /**
     * Every library type, method and field the advice and helpers of the plugin in {@code pluginClasses}
     * use exists in each version whose types its probes target.
     */
    public void assertEveryReferenceResolves(Path pluginClasses) {
        assertThat(versions).as("claimed versions").isNotEmpty();
        LibraryReferences references = LibraryReferences.of(pluginClasses);
        List<String> problems = new ArrayList<>();
        versions.forEach((version, jars) -> {
            List<Path> all = new ArrayList<>(jars);
            shared.stream().filter(jar -> !all.contains(jar)).forEach(all::add);
            problems.addAll(references.problems(version, all));
        });
        assertThat(problems).as("references of the plugin's advice that the claimed versions lack").isEmpty();
    }

    /** The module's own classes, where Maven puts them. */
    public static Path moduleClasses() {
        return Paths.get("target", "classes");
    }
}
