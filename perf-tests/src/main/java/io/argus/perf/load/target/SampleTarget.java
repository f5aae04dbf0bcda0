package io.argus.perf.load.target;

import io.argus.cluster.LoopbackPorts;
import io.argus.perf.harness.http.Http;
import io.argus.perf.harness.http.RequestSpec;
import io.argus.perf.sample.SampleService;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.security.CodeSource;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The sample target: {@link SampleService} twice, {@code back} then {@code front}, each in its own
 * JVM on Jetty 12 with the agent of the scenario on both. {@code /front/call} crosses to
 * {@code /back/hello} through java.net.http, so traces span two processes.
 *
 * <p>The JVMs get a minimal class path (the suite's jar, Jetty, SLF4J) and not the harness's,
 * which also holds Gatling, Netty and Logback: the agents would otherwise see different classes.
 */
public final class SampleTarget implements Target {

    public static final List<String> ENDPOINTS = List.of("call", "ping", "cpu");
    static final Pattern STARTED = Pattern.compile("Started @(\\d+)ms");

    private final String endpoint;
    private final List<String> jvmOptions;

    /** @param endpoint call (front to back), ping (trivial) or cpu (some hashing on front) */
    public SampleTarget(String endpoint) {
        if (!ENDPOINTS.contains(endpoint)) {
            throw new IllegalArgumentException("unknown endpoint '" + endpoint + "'; expected one of " + ENDPOINTS);
        }
        this.endpoint = endpoint;
        // fixed heap and GC so that every scenario runs with the same memory settings
        this.jvmOptions = List.of("-Xms256m", "-Xmx256m", "-XX:+UseG1GC");
    }

    @Override
    public String name() {
        return "sample";
    }

    @Override
    public String description() {
        return "sample front/back service (Jetty 12, java.net.http between them); load endpoint /front/"
                + endpointPath() + "; JVM options " + String.join(" ", jvmOptions);
    }

    public String endpoint() {
        return endpoint;
    }

    private String endpointPath() {
        return endpoint.equals("cpu") ? "cpu?n=20000" : endpoint;
    }

    @Override
    public LaunchPlan plan(TargetEnv env) throws IOException {
        int backPort = LoopbackPorts.free();
        int frontPort = LoopbackPorts.free();
        while (frontPort == backPort) {
            frontPort = LoopbackPorts.free();
        }
        String cp = classPath();
        String main = SampleService.class.getName();
        Duration timeout = Duration.ofSeconds(120);
        ProcessSpec back = new ProcessSpec("back", jvmOptions, cp,
                List.of(main, "--name", "back", "--port", Integer.toString(backPort)),
                RequestSpec.get("http://127.0.0.1:" + backPort + "/back/ping"), STARTED, true, timeout, Map.of());
        ProcessSpec front = new ProcessSpec("front", jvmOptions, cp,
                List.of(main, "--name", "front", "--port", Integer.toString(frontPort),
                        "--downstream", "http://127.0.0.1:" + backPort),
                RequestSpec.get("http://127.0.0.1:" + frontPort + "/front/ping"), STARTED, true, timeout, Map.of());
        RequestSpec load = RequestSpec.get("http://127.0.0.1:" + frontPort + "/front/" + endpointPath());
        RequestSpec smoke = RequestSpec.get("http://127.0.0.1:" + frontPort + "/front/call");
        return new LaunchPlan(List.of(back, front), load, smoke);
    }

    @Override
    public void afterReady(LaunchPlan plan, TargetEnv env) throws Exception {
        Http.Response r = Http.once(plan.smokeRequest(), Duration.ofSeconds(30));
        if (!plan.smokeRequest().matches(r.status()) || !r.body().contains("hello from back")) {
            throw new IOException("front -> back chain broken: " + plan.smokeRequest().describe() + " answered "
                    + r.status() + " '" + r.body() + "'");
        }
        Http.Response load = Http.once(plan.loadRequest(), Duration.ofSeconds(30));
        if (!plan.loadRequest().matches(load.status())) {
            throw new IOException(plan.loadRequest().describe() + " answered " + load.status());
        }
    }

    /** The jars (or class folders) holding the sample service, Jetty 12 and SLF4J. */
    static String classPath() {
        Set<String> entries = new LinkedHashSet<>();
        for (Class<?> c : new Class<?>[]{SampleService.class, org.eclipse.jetty.server.Server.class,
                org.eclipse.jetty.http.HttpField.class, org.eclipse.jetty.io.EndPoint.class,
                org.eclipse.jetty.util.Callback.class, org.slf4j.Logger.class}) {
            entries.add(location(c));
        }
        return String.join(File.pathSeparator, entries);
    }

    private static String location(Class<?> c) {
        CodeSource source = c.getProtectionDomain().getCodeSource();
        if (source == null || source.getLocation() == null) {
            throw new IllegalStateException("cannot tell where " + c.getName() + " was loaded from");
        }
        try {
            return Path.of(source.getLocation().toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
