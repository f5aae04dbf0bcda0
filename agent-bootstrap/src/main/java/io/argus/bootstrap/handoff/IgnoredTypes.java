package io.argus.bootstrap.handoff;

/**
 * Packages no plugin instruments through a hierarchy match: the JDK, the agent itself, and
 * common libraries that never implement a probed type. Checked on internal names
 * ({@code java/lang/String}) before any hierarchy work. Exact-name probes are looked up first, so
 * a plugin can still name a class in one of these packages.
 */
public final class IgnoredTypes {

    private static final String[] PREFIXES = {
            "java/", "javax/", "jdk/", "sun/", "com/sun/", "org/ietf/", "org/w3c/", "org/xml/",
            "io/argus/", "net/bytebuddy/", "org/objectweb/asm/", "kotlin/", "scala/", "groovy/",
            "org/codehaus/groovy/", "org/slf4j/", "ch/qos/logback/", "org/apache/logging/log4j/",
            "org/apache/log4j/", "com/fasterxml/jackson/", "com/google/common/", "com/google/protobuf/",
            "com/google/inject/", "org/joda/", "org/junit/", "org/assertj/", "org/hamcrest/",
            "org/apache/commons/", "it/unimi/dsi/fastutil/", "org/roaringbitmap/", "org/antlr/",
            "org/apache/calcite/", "org/apache/derby/", "org/hibernate/validator/", "io/micrometer/",
            "org/eclipse/jetty/util/", "org/eclipse/jetty/http/", "org/eclipse/jetty/io/",
    };

    private IgnoredTypes() {
    }

    /** The packages that even a name-hinted hierarchy probe skips: the JDK's and the agent's. */
    private static final String[] PLATFORM_PREFIXES = {
            "java/", "javax/", "jdk/", "sun/", "com/sun/", "io/argus/", "net/bytebuddy/",
    };

    /** Whether {@code className} (dotted) is the JDK's, such as {@code java.util.concurrent.ForkJoinTask}. */
    public static boolean isJdkClass(String className) {
        return className.startsWith("java.") || className.startsWith("jdk.") || className.startsWith("sun.")
                || className.startsWith("com.sun.");
    }

    public static boolean isPlatformOrGenerated(String internalName) {
        for (String prefix : PLATFORM_PREFIXES) {
            if (internalName.startsWith(prefix)) {
                return true;
            }
        }
        return isGenerated(internalName);
    }

    public static boolean isIgnored(String internalName) {
        for (String prefix : PREFIXES) {
            if (internalName.startsWith(prefix)) {
                return true;
            }
        }
        return isGenerated(internalName);
    }

    private static boolean isGenerated(String internalName) {
        return internalName.contains("$$Lambda") || internalName.contains("$$EnhancerBy")
                || internalName.contains("$$FastClassBy") || internalName.contains("$Proxy")
                || internalName.contains("$$ByteBuddy") || internalName.contains("$$Accessor");
    }
}
