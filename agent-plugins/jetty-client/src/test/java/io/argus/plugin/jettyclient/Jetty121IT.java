package io.argus.plugin.jettyclient;

import io.argus.testing.AgentApp;
import io.argus.testing.ClientAppRun;
import org.junit.jupiter.api.Test;

import java.util.Map;

/** The newest Jetty 12.1.x; the basic scenario also runs on Temurin 25. */
class Jetty121IT extends AbstractJetty12ClientIT {

    @Override
    String version() {
        return System.getProperty("argus.test.jetty12.1");
    }

    @Test
    void tracesAndCountsOnTheNewestJdk() {
        ClientAppRun run = run("on", AgentApp.newestJavaHome(), 100, Map.of());
        assertTracedCall(run, "traced", "sync");
        assertTracedCall(run, "async-traced", "async");
        assertCounts(run);
    }
}
