package io.argus.plugin.jdbc;

import io.argus.testing.AgentApp;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The newest H2 2.x on Maven Central; also the one database run on Temurin 25. */
class H2NewestIT extends H2OldestIT {

    @Override
    String jars() {
        return "h2-" + System.getProperty("argus.test.h2.newest");
    }

    @Test
    void basicsOnTheNewestJdk() {
        String jdk = AgentApp.newestJavaHome();
        String service = "jdbc-h2-" + jdkLabel(jdk);
        try (AgentApp app = start(jdk, service, Map.of())) {
            assertDbSpan(dbSpans(app, "prepared", 2).get(0), "SELECT", "SELECT name FROM items WHERE id = ?");
            assertThat(dbSpans(app, "error", 2).get(0).path("status").asText()).isEqualTo("ERROR");
            io.argus.testing.CollectorClient.await("db metrics of " + service, WAIT,
                    () -> dbCounts(service, target()), counts -> counts.equals(EXPECTED_COUNTS));
            assertThat(agentGauge(service, "agent.advice.errors")).isZero();
        }
    }
}
