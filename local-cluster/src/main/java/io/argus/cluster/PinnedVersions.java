package io.argus.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** The versions the parent POM pins for the servers this module starts, written into the jar by the build. */
public final class PinnedVersions {
    private static final Properties VERSIONS = load();

    private PinnedVersions() {
    }

    /** {@code druid.version}. */
    public static String druid() {
        return get("druid.version");
    }

    /** {@code kafka.version}. */
    public static String kafka() {
        return get("kafka.version");
    }

    /** The maven-dependency-plugin version that fetches the servers' jars. */
    public static String dependencyPlugin() {
        return get("dependency-plugin.version");
    }

    private static String get(String key) {
        String v = VERSIONS.getProperty(key);
        if (v == null || v.startsWith("${")) {
            throw new IllegalStateException("versions.properties lacks " + key + " (was the jar built by Maven?)");
        }
        return v;
    }

    private static Properties load() {
        try (InputStream in = PinnedVersions.class.getResourceAsStream("versions.properties")) {
            Properties p = new Properties();
            if (in != null) {
                p.load(in);
            }
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
