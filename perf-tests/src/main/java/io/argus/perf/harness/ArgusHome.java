package io.argus.perf.harness;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The Argus distribution folder ({@code distribution/target/argus/} or an unpacked tar.gz):
 * {@code agent/argus-agent.jar}, {@code agent/plugins/argus-plugin-*.jar},
 * {@code collector/bin/argus-collector} and {@code perf/peers/}.
 */
public final class ArgusHome {

    /** The plugins of the design card, used when the distribution has no plugin jars to list. */
    static final List<String> KNOWN_PLUGINS = List.of("jvm", "jetty", "servlet", "jdk-http-client",
            "http-url-connection", "apache-httpclient", "okhttp", "netty3-client", "executors");
    private static final Pattern PLUGIN_JAR = Pattern.compile("argus-plugin-(.+?)(-\\d+\\..*)?\\.jar");

    private final Path root;

    public ArgusHome(Path root) {
        this.root = root == null ? null : root.toAbsolutePath().normalize();
    }

    public Path root() {
        return root;
    }

    public Path agentJar() {
        return root == null ? null : root.resolve("agent/argus-agent.jar");
    }

    public boolean hasAgent() {
        return root != null && Files.isRegularFile(agentJar());
    }

    public Path collectorScript() {
        return root == null ? null : root.resolve("collector/bin/argus-collector");
    }

    public boolean hasCollector() {
        return root != null && Files.isRegularFile(collectorScript());
    }

    /** Plugin names from agent/plugins/argus-plugin-NAME[-VERSION].jar, sorted. */
    public List<String> pluginNames() {
        List<String> names = new ArrayList<>();
        if (root != null) {
            Path dir = root.resolve("agent/plugins");
            if (Files.isDirectory(dir)) {
                try (Stream<Path> files = Files.list(dir)) {
                    files.map(p -> p.getFileName().toString()).sorted().forEach(f -> {
                        String name = pluginName(f);
                        if (name != null && !names.contains(name)) {
                            names.add(name);
                        }
                    });
                } catch (IOException ignored) {
                    // none
                }
            }
        }
        return names.isEmpty() ? KNOWN_PLUGINS : names;
    }

    static String pluginName(String fileName) {
        Matcher m = PLUGIN_JAR.matcher(fileName);
        return m.matches() ? m.group(1) : null;
    }

    /** Implementation-Version of argus-agent.jar, or "unknown". */
    public String agentVersion() {
        if (!hasAgent()) {
            return "not found";
        }
        try (JarFile jar = new JarFile(agentJar().toFile())) {
            String v = jar.getManifest() == null ? null
                    : jar.getManifest().getMainAttributes().getValue("Implementation-Version");
            return v == null ? "unknown" : v;
        } catch (IOException e) {
            return "unknown";
        }
    }

    /**
     * The peer agents' folder: {@code perf/peers} of the distribution, else
     * {@code target/peers} next to the suite's jar when running from the source tree.
     */
    public Path defaultPeersDir() {
        if (root != null && Files.isDirectory(root.resolve("perf/peers"))) {
            return root.resolve("perf/peers");
        }
        Path own = ownJarDir();
        if (own != null) {
            for (Path candidate : List.of(own.resolve("peers"), own.resolve("../peers"), own.resolve("../target/peers"))) {
                if (Files.isDirectory(candidate)) {
                    return candidate.normalize();
                }
            }
        }
        return root == null ? Path.of("peers") : root.resolve("perf/peers");
    }

    /** The folder holding the suite's jar or classes (target/ when run from the source tree). */
    static Path ownJarDir() {
        Path own = ownCodeSource();
        return own == null ? null : own.toAbsolutePath().getParent();
    }

    /** The suite's jar or classes folder: the whole class path a child JVM of the suite needs. */
    public static Path ownCodeSource() {
        CodeSource source = ArgusHome.class.getProtectionDomain().getCodeSource();
        if (source == null || source.getLocation() == null) {
            return null;
        }
        try {
            return Path.of(source.getLocation().toURI());
        } catch (URISyntaxException e) {
            return null;
        }
    }

    /** The repository root when running from the source tree (a folder with perf-tests/ and agent-plugins/), or null. */
    public static Path sourceTree() {
        Path own = ownCodeSource();
        for (Path p = own == null ? null : own.toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isDirectory(p.resolve("perf-tests")) && Files.isDirectory(p.resolve("agent-plugins"))) {
                return p;
            }
        }
        return null;
    }

    /** A guess at the distribution when --argus-home is not given: ../ of perf/, or the source tree's. */
    public static Path guess() {
        Path own = ownJarDir();
        if (own == null) {
            return null;
        }
        // distribution: <home>/perf/lib/argus-perf-tests.jar
        Path home = own.getParent() == null ? null : own.getParent().getParent();
        if (home != null && Files.isRegularFile(home.resolve("agent/argus-agent.jar"))) {
            return home;
        }
        // source tree: <repo>/perf-tests/target/{classes,argus-perf-tests.jar}
        for (Path p = own; p != null; p = p.getParent()) {
            Path candidate = p.resolve("distribution/target/argus");
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        return null;
    }
}
