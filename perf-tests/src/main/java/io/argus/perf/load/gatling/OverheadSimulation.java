package io.argus.perf.load.gatling;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.gatling.javaapi.http.HttpProtocolBuilder;
import io.gatling.javaapi.http.HttpRequestActionBuilder;

import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

/**
 * The Gatling half of the load runs: {@code argus.perf.users} virtual users started at once, each
 * sending the target's request in a loop on its own keep-alive connection for
 * {@code argus.perf.seconds} seconds (a closed system at fixed concurrency). Run by
 * {@code io.argus.perf.load.run.GatlingRunner} as a child JVM ({@code io.gatling.app.Gatling -s ...OverheadSimulation});
 * every setting comes in as a system property.
 */
public class OverheadSimulation extends Simulation {

    public static final String URL = "argus.perf.url";
    public static final String METHOD = "argus.perf.method";
    public static final String BODY = "argus.perf.body";
    public static final String CONTENT_TYPE = "argus.perf.contentType";
    /** When set, the body is a template whose %d rises by one per request from this value. */
    public static final String RISING_FROM = "argus.perf.risingFrom";
    public static final String USERS = "argus.perf.users";
    public static final String SECONDS = "argus.perf.seconds";
    public static final String REQUEST_NAME = "request";

    public OverheadSimulation() {
        String url = required(URL);
        String method = System.getProperty(METHOD, "GET");
        String body = System.getProperty(BODY);
        String contentType = System.getProperty(CONTENT_TYPE, "application/json");
        int users = Integer.getInteger(USERS, 8);
        int seconds = Integer.getInteger(SECONDS, 30);

        String rising = System.getProperty(RISING_FROM);
        HttpRequestActionBuilder request;
        if (!"POST".equalsIgnoreCase(method)) {
            request = http(REQUEST_NAME).get(url);
        } else if (rising != null && body != null) {
            AtomicLong next = new AtomicLong(Long.parseLong(rising));
            request = http(REQUEST_NAME).post(url).header("Content-Type", contentType)
                    .body(StringBody(session -> String.format(Locale.ROOT, body, next.getAndIncrement())));
        } else {
            request = http(REQUEST_NAME).post(url).header("Content-Type", contentType).body(StringBody(body == null ? "" : body));
        }
        request = request.check(status().is(200));

        HttpProtocolBuilder protocol = http
                .acceptHeader("*/*")
                .userAgentHeader("argus-perf-gatling")
                .disableCaching()
                .disableFollowRedirect();

        ScenarioBuilder scenario = scenario("overhead")
                .during(Duration.ofSeconds(seconds)).on(exec(request));

        setUp(scenario.injectOpen(atOnceUsers(users)))
                .protocols(protocol)
                .maxDuration(Duration.ofSeconds(seconds + 60L));
    }

    private static String required(String key) {
        String value = System.getProperty(key);
        if (value == null || value.isEmpty()) {
            throw new IllegalStateException("missing system property " + key);
        }
        return value;
    }
}
