package io.argus.perf.load.target;

import io.argus.cluster.LoopbackPorts;
import io.argus.perf.harness.ArgusHome;
import io.argus.perf.harness.http.Http;
import io.argus.perf.harness.http.RequestSpec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The Spring Boot target: a PetClinic-like application of realistic size (Spring MVC, Spring Data JPA with
 * Hibernate on H2, Actuator; about 15k classes), one JVM run from its executable jar with Boot's own launcher,
 * as users run it. The load request reads an owner with its pets through JPA ({@code /owners/1}).
 */
public final class SpringTarget implements Target {

    public static final List<String> ENDPOINTS = List.of("owner", "owners");
    static final String SERVICE = "petclinic";
    static final Pattern STARTED = Pattern.compile("PetClinic started @(\\d+)ms");
    private static final String LAUNCHER = "org.springframework.boot.loader.launch.JarLauncher";

    private final Path jar;
    private final String endpoint;
    private final List<String> jvmOptions = List.of("-Xms512m", "-Xmx512m", "-XX:+UseG1GC");

    /**
     * @param jar      the application's executable jar (the distribution's perf/targets/spring-app.jar)
     * @param endpoint owner (one owner with pets, a JPA join) or owners (a search by last name)
     */
    public SpringTarget(Path jar, String endpoint) {
        if (!ENDPOINTS.contains(endpoint)) {
            throw new IllegalArgumentException("unknown endpoint '" + endpoint + "'; expected one of " + ENDPOINTS);
        }
        this.jar = jar;
        this.endpoint = endpoint;
    }

    /** The jar the distribution ships: {@code <argus-home>/perf/targets/spring-app.jar}. */
    public static Path shippedJar(ArgusHome home) throws IOException {
        Path jar = home.root().resolve("perf").resolve("targets").resolve("spring-app.jar");
        if (!Files.isRegularFile(jar)) {
            throw new IOException(jar + " is missing (built by the distribution module)");
        }
        return jar;
    }

    @Override
    public String name() {
        return "spring";
    }

    @Override
    public String description() {
        return "Spring Boot 3.5 PetClinic-like service (MVC, Data JPA/Hibernate on H2, Actuator) run with java -jar's"
                + " launcher; load endpoint " + path() + "; JVM options " + String.join(" ", jvmOptions);
    }

    private String path() {
        return endpoint.equals("owner") ? "/owners/1" : "/owners?lastName=Da";
    }

    @Override
    public LaunchPlan plan(TargetEnv env) throws IOException {
        int port = LoopbackPorts.free();
        String base = "http://127.0.0.1:" + port;
        ProcessSpec app = new ProcessSpec(SERVICE, jvmOptions, jar.toString(),
                List.of(LAUNCHER, "--server.port=" + port, "--server.address=127.0.0.1"),
                RequestSpec.get(base + "/owners/1"), STARTED, true, Duration.ofSeconds(180), Map.of());
        RequestSpec load = RequestSpec.get(base + path());
        return new LaunchPlan(List.of(app), load, load);
    }

    @Override
    public void afterReady(LaunchPlan plan, TargetEnv env) throws Exception {
        Http.Response r = Http.once(plan.loadRequest(), Duration.ofSeconds(30));
        if (!plan.loadRequest().matches(r.status()) || !r.body().contains("\"id\"")) {
            throw new IOException(plan.loadRequest().describe() + " answered " + r.status() + " '" + r.body() + "'");
        }
    }

    @Override
    public List<String> serviceNames() {
        return List.of(SERVICE);
    }

    @Override
    public List<String> tracedServices() {
        return List.of(SERVICE);
    }

    @Override
    public String tracedRootName() {
        return "/owners";
    }
}
