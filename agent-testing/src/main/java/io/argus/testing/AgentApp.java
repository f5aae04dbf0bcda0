package io.argus.testing;

import org.junit.jupiter.api.Assumptions;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A real application JVM, forked with {@code -javaagent:} pointing at an assembled agent folder.
 * Its output is kept so tests can wait for lines and check what the agent logged.
 */
public final class AgentApp implements AutoCloseable {

    /** Classpath entries the application must not see: the agent's own code and its libraries. */
    private static final List<String> AGENT_SIDE = List.of(
            "argus-agent-core", "argus-agent-bootstrap", "argus-protocol", "argus-collector-server",
            "argus-agent-testing", "argus-plugin-", "/byte-buddy", "/netty-", "/protobuf-java", "/jctools-core",
            "/duckdb", "/jackson-", "/mongo-java-server", "/micrometer-", "/asm-", "/junit", "/opentest4j", "/apiguardian", "/assertj",
            "surefire", "failsafe");

    private final Process process;
    private final List<String> lines = Collections.synchronizedList(new ArrayList<>());
    private final Path log;
    /** The class cache folder made for this JVM alone, deleted when it stops; null when the test chose one. */
    private Path ownClassCache;

    private AgentApp(Process process, Path log) {
        this.process = process;
        this.log = log;
        Thread pump = new Thread(this::pump, "agent-app-output");
        pump.setDaemon(true);
        pump.start();
    }

    public static Builder builder(String mainClass) {
        return new Builder(mainClass);
    }

    /** An application packaged as one executable jar, started with {@code java -jar}. */
    public static Builder jar(Path executableJar) {
        Builder builder = new Builder(executableJar.toString());
        builder.executableJar = true;
        return builder;
    }

    /** The assembled agent folder, from {@code -Dargus.agent.dir} (set by the build). */
    public static Path agentDir() {
        String dir = System.getProperty("argus.agent.dir");
        if (dir == null) {
            throw new IllegalStateException("system property argus.agent.dir is not set");
        }
        return Paths.get(dir);
    }

    /** JDKs to run target applications on: the current one, plus Temurin 25 when installed. */
    public static List<String> javaHomes() {
        List<String> homes = new ArrayList<>();
        homes.add(System.getProperty("java.home"));
        String jdk25 = System.getProperty("argus.test.jdk25", "/usr/lib/jvm/temurin-25-jdk-amd64");
        if (Files.isExecutable(Paths.get(jdk25, "bin", "java"))) {
            homes.add(jdk25);
        }
        return homes;
    }

    /** The newest of {@link #javaHomes()}, beside the one running the tests; the test is skipped without it. */
    public static String newestJavaHome() {
        List<String> homes = javaHomes();
        Assumptions.assumeTrue(homes.size() > 1, "Temurin 25 is not installed");
        return homes.get(homes.size() - 1);
    }

    /**
     * This JVM's class path without the agent's own jars and test frameworks; the code the test
     * applications share ({@link #testingAppClasspath()}) stays.
     */
    public static String applicationClasspath() {
        String testingApp = testingAppClasspath();
        return Collections.list(new java.util.StringTokenizer(System.getProperty("java.class.path"), File.pathSeparator))
                .stream().map(Object::toString)
                .filter(entry -> entry.equals(testingApp)
                        || (AGENT_SIDE.stream().noneMatch(entry::contains) && !isModuleMainClasses(entry)))
                .collect(Collectors.joining(File.pathSeparator));
    }

    /**
     * {@link #applicationClasspath()} for another version of a library: {@code replacements} first (the
     * version's jars), then the entries not naming {@code replaced} (a path fragment such as
     * {@code "/jedis-"}), then {@code extra} entries of this JVM's class path that the application
     * class path leaves out (e.g. a library's Netty, {@code "/netty-"}), if any.
     */
    public static String applicationClasspath(List<String> replacements, String replaced, String extra) {
        List<String> entries = new ArrayList<>(replacements);
        for (String entry : applicationClasspath().split(File.pathSeparator)) {
            if (replaced == null || !entry.contains(replaced)) {
                entries.add(entry);
            }
        }
        if (extra != null) {
            for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
                if (entry.contains(extra)) {
                    entries.add(entry);
                }
            }
        }
        return String.join(File.pathSeparator, entries);
    }

    /**
     * Where the code the test applications share comes from (module agent-testing-app, package
     * {@code io.argus.testing.app}: JDK and bridge only): its jar, or its classes folder in a reactor build.
     */
    public static String testingAppClasspath() {
        try {
            return Paths.get(io.argus.testing.app.Downstream.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                    .toString();
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A plugin module's own target/classes holds advice code: keep it off the application's path. */
    private static boolean isModuleMainClasses(String entry) {
        return entry.endsWith(File.separator + "target" + File.separator + "classes");
    }

    private void pump() {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                lines.add(line);
                if (log != null) {
                    Files.writeString(log, line + System.lineSeparator(), StandardCharsets.UTF_8,
                            java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
                }
            }
        } catch (IOException ignored) {
            // process ended
        }
    }

    /** Waits for a line matching {@code regex}; returns the match. Fails if the process dies first. */
    public Matcher awaitLine(String regex, Duration timeout) {
        Pattern pattern = Pattern.compile(regex);
        long deadline = System.nanoTime() + timeout.toNanos();
        int checked = 0;
        while (System.nanoTime() < deadline) {
            synchronized (lines) {
                for (; checked < lines.size(); checked++) {
                    Matcher m = pattern.matcher(lines.get(checked));
                    if (m.find()) {
                        return m;
                    }
                }
            }
            if (!process.isAlive()) {
                throw new IllegalStateException("process exited with " + process.exitValue()
                        + " before printing /" + regex + "/; output:\n" + output());
            }
            sleep(20);
        }
        throw new IllegalStateException("no line /" + regex + "/ within " + timeout + "; output:\n" + output());
    }

    public String output() {
        synchronized (lines) {
            return String.join("\n", lines);
        }
    }

    /** The index of the first line printed so far that starts with {@code prefix}, or -1. */
    public int indexOfLineStartingWith(String prefix) {
        synchronized (lines) {
            for (int i = 0; i < lines.size(); i++) {
                if (lines.get(i).startsWith(prefix)) {
                    return i;
                }
            }
            return -1;
        }
    }

    public List<String> lines() {
        synchronized (lines) {
            return new ArrayList<>(lines);
        }
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public long pid() {
        return process.pid();
    }

    /** Stops the JVM the way an operator would (SIGTERM, so shutdown hooks run), then forcibly. */
    @Override
    public void close() {
        Processes.stop(process);
        TempFolders.delete(ownClassCache);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public static final class Builder {
        private static final String CLASS_CACHE_DIR = "argus.startup.classCacheDir";
        private final String mainClass;
        private boolean executableJar;
        private final List<String> args = new ArrayList<>();
        private final List<String> jvmArgs = new ArrayList<>();
        private final Map<String, String> agentProperties = new LinkedHashMap<>();
        private String javaHome = System.getProperty("java.home");
        private Path agentDir;
        private boolean withAgent = true;
        private String classpath;
        private boolean withTestingApp;
        private Path logFile;

        private Builder(String mainClass) {
            this.mainClass = mainClass;
            agentProperties.put("argus.metrics.interval", "1s");
            agentProperties.put("argus.exporter.maxDelay", "20ms");
        }

        public Builder javaHome(String home) {
            this.javaHome = home;
            return this;
        }

        public Builder withoutAgent() {
            this.withAgent = false;
            return this;
        }

        public Builder agentDir(Path dir) {
            this.agentDir = dir;
            return this;
        }

        /** An {@code argus.*} setting, passed as {@code -D}. */
        public Builder agent(String key, Object value) {
            agentProperties.put(key, String.valueOf(value));
            return this;
        }

        /** Several {@code argus.*} settings, key then value. */
        public Builder agentSettings(String... keyValues) {
            for (int i = 0; i < keyValues.length; i += 2) {
                agent(keyValues[i], keyValues[i + 1]);
            }
            return this;
        }

        public Builder service(String name) {
            return agent("argus.service.name", name);
        }

        public Builder collector(int ingestPort) {
            return agent("argus.collector.address", "127.0.0.1:" + ingestPort);
        }

        public Builder samplingRate(double percent) {
            return agent("argus.tracing.samplingRate", percent);
        }

        public Builder jvmArg(String arg) {
            jvmArgs.add(arg);
            return this;
        }

        public Builder args(String... more) {
            args.addAll(List.of(more));
            return this;
        }

        public Builder classpath(String cp) {
            this.classpath = cp;
            return this;
        }

        /** Adds the code the test applications share ({@link #testingAppClasspath()}) to a class path set with {@link #classpath}. */
        public Builder withTestingApp() {
            this.withTestingApp = true;
            return this;
        }

        public Builder logTo(Path file) {
            this.logFile = file;
            return this;
        }

        /** Keeps the output in {@code <argus.test.logs>/<name>.log} when the build sets that folder. */
        public Builder logToTestLogs(String name) {
            String logs = System.getProperty("argus.test.logs");
            return logs == null ? this : logTo(Paths.get(logs, name + ".log"));
        }

        public List<String> command() {
            List<String> command = new ArrayList<>();
            command.add(Paths.get(javaHome, "bin", "java").toString());
            command.add("-Xmx256m");
            command.add("-XX:+UseSerialGC");
            command.add("-XX:TieredStopAtLevel=1");
            if (withAgent) {
                Path dir = agentDir != null ? agentDir : AgentApp.agentDir();
                command.add("-javaagent:" + dir.resolve("argus-agent.jar"));
                agentProperties.forEach((k, v) -> command.add("-D" + k + "=" + v));
            }
            command.addAll(jvmArgs);
            if (executableJar) {
                command.add("-jar");
                command.add(mainClass);
                command.addAll(args);
                return command;
            }
            command.add("-cp");
            String cp = classpath != null ? classpath : applicationClasspath();
            if (withTestingApp && !List.of(cp.split(File.pathSeparator)).contains(testingAppClasspath())) {
                cp = cp + File.pathSeparator + testingAppClasspath();
            }
            command.add(cp);
            command.add(mainClass);
            command.addAll(args);
            return command;
        }

        /**
         * Starts the JVM. Unless the test names a class cache folder ({@code argus.startup.classCacheDir}), the
         * agent gets an empty one of its own, as on a machine it never ran on: no test sees another's woven classes.
         */
        public AgentApp start() {
            try {
                Path ownClassCache = null;
                if (withAgent && !agentProperties.containsKey(CLASS_CACHE_DIR)) {
                    ownClassCache = Files.createTempDirectory("argus-test-classes");
                    agentProperties.put(CLASS_CACHE_DIR, ownClassCache.resolve("cache").toString());
                }
                ProcessBuilder pb = new ProcessBuilder(command()).redirectErrorStream(true);
                pb.environment().keySet().removeIf(k -> k.startsWith("ARGUS_"));
                if (logFile != null) {
                    Files.createDirectories(logFile.getParent());
                    Files.deleteIfExists(logFile);
                }
                AgentApp app = new AgentApp(pb.start(), logFile);
                app.ownClassCache = ownClassCache;
                if (ownClassCache != null) {
                    agentProperties.remove(CLASS_CACHE_DIR); // a builder started again gets another
                }
                return app;
            } catch (IOException e) {
                throw new IllegalStateException("cannot start " + mainClass, e);
            }
        }

        /**
         * Starts the application and waits until it prints {@code DONE} (a scenario application that has run every
         * scenario and stays up for the test to read its spans); stopped again when it does not in time.
         */
        public AgentApp startAndAwaitDone(Duration timeout) {
            AgentApp app = start();
            try {
                app.awaitLine("^DONE$", timeout);
            } catch (RuntimeException e) {
                app.close();
                throw e;
            }
            return app;
        }
    }
}
