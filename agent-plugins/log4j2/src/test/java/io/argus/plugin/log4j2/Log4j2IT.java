package io.argus.plugin.log4j2;

import io.argus.testing.AbstractLogCorrelationIT;
import io.argus.testing.AgentApp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;

/**
 * The oldest supported and the newest Log4j 2, on JDK 17 and Temurin 25 (and with the garbage-free
 * context map), in a forked JVM with the agent: {@code Log4j2App} logs through a plain and an async
 * appender, and the ids it prints must be those of the span current when it logged, as the collector
 * recorded them.
 */
class Log4j2IT extends AbstractLogCorrelationIT {

    static List<Arguments> versionsAndJdks() {
        List<Arguments> all = new ArrayList<>();
        for (String version : List.of(System.getProperty("argus.test.log4j2.oldest"), System.getProperty("argus.test.log4j2.newest"))) {
            for (String javaHome : AgentApp.javaHomes()) {
                all.add(Arguments.of(version, javaHome, false));
            }
            all.add(Arguments.of(version, JDK, true));
        }
        return all;
    }

    @Override
    protected String plugin() {
        return "log4j2";
    }

    @Override
    protected String mainClass() {
        return "io.argus.plugin.log4j2.app.Log4j2App";
    }

    @ParameterizedTest(name = "Log4j 2 {0} on {1}, garbage-free context map: {2}")
    @MethodSource("versionsAndJdks")
    void eventsCarryTheIdsOfTheSpanCurrentWhenLogged(String version, String javaHome, boolean garbageFree) {
        String service = "log4j2-" + version + "-" + jdkLabel(javaHome) + (garbageFree ? "-gc-free" : "");
        verifyIdsOfTheCurrentSpan(service, app(service, version, javaHome)
                .jvmArg("-Dlog4j2.garbagefreeThreadContextMap=" + garbageFree));
    }

    @Test
    void noIdsAndNothingTransformedWhenDisabled() {
        verifyNothingWhenDisabled();
    }
}
