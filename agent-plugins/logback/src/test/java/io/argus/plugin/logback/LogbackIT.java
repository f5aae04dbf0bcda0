package io.argus.plugin.logback;

import io.argus.testing.AbstractLogCorrelationIT;
import io.argus.testing.AgentApp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;

/**
 * The oldest supported and the newest Logback, on JDK 17 and Temurin 25, in a forked JVM with the
 * agent: {@code LogbackApp} logs through a plain and an async appender, and the ids it prints must be
 * those of the span current when it logged, as the collector recorded them.
 */
class LogbackIT extends AbstractLogCorrelationIT {

    static List<Arguments> versionsAndJdks() {
        List<Arguments> all = new ArrayList<>();
        for (String version : List.of(System.getProperty("argus.test.logback.oldest"), System.getProperty("argus.test.logback.newest"))) {
            for (String javaHome : AgentApp.javaHomes()) {
                all.add(Arguments.of(version, javaHome));
            }
        }
        return all;
    }

    @Override
    protected String plugin() {
        return "logback";
    }

    @Override
    protected String mainClass() {
        return "io.argus.plugin.logback.app.LogbackApp";
    }

    @ParameterizedTest(name = "Logback {0} on {1}")
    @MethodSource("versionsAndJdks")
    void eventsCarryTheIdsOfTheSpanCurrentWhenLogged(String version, String javaHome) {
        String service = "logback-" + version + "-" + jdkLabel(javaHome);
        verifyIdsOfTheCurrentSpan(service, app(service, version, javaHome));
    }

    @Test
    void noIdsAndNothingTransformedWhenDisabled() {
        verifyNothingWhenDisabled();
    }
}
