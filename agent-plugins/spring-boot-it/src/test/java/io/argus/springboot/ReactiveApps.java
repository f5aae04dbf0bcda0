package io.argus.springboot;

import io.argus.testing.AgentApp;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static io.argus.testing.AbstractCollectorIT.WAIT;

/**
 * The reactive test applications (src/test/reactive-app): WebFlux on Reactor Netty and Spring Kafka, on the class
 * path of one Boot version's reactive libraries ({@code reactive3}, {@code reactive4}), with the agent at its defaults.
 */
final class ReactiveApps {

    private ReactiveApps() {
    }

    /** Temurin 25 where the build has it, else the default JDK. */
    static String otherJdk() {
        List<String> homes = AgentApp.javaHomes();
        return homes.size() > 1 ? homes.get(1) : homes.get(0);
    }

    /** "boot3" or "boot4" to the system property key of its reactive class path. */
    static String line(String boot) {
        return boot.replace("boot", "reactive");
    }

    static AgentApp.Builder app(String boot, String mainClass, String service, String javaHome, int collectorPort,
                                String... args) {
        List<String> all = new ArrayList<>(List.of("--server.port=0", "--spring.main.banner-mode=off"));
        all.addAll(List.of(args));
        return AgentApp.builder(mainClass)
                .javaHome(javaHome)
                .service(service)
                .collector(collectorPort)
                .classpath(classpath(boot))
                .args(all.toArray(new String[0]))
                .logToTestLogs(service);
    }

    /** The port Reactor Netty reports once Boot has started it; requests go out right then. */
    static int port(AgentApp app) {
        Matcher started = app.awaitLine("Netty started on port (\\d+)", WAIT.multipliedBy(3));
        return Integer.parseInt(started.group(1));
    }

    private static String classpath(String boot) {
        String line = line(boot);
        Path libs = Paths.get(System.getProperty("argus.test." + line + ".libs"));
        try (Stream<Path> jars = Files.list(libs)) {
            List<String> entries = jars.map(Path::toString).sorted().collect(Collectors.toList());
            entries.add(System.getProperty("argus.test." + line + ".app"));
            return String.join(File.pathSeparator, entries);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
