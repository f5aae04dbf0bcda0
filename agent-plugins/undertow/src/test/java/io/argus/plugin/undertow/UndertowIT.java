package io.argus.plugin.undertow;

import io.argus.testing.AgentApp;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Undertow 2.3, the newest supported release; also with Undertow recording the request start time
 * itself (UndertowOptions.RECORD_REQUEST_START_TIME), and the basic scenario on Temurin 25.
 */
class UndertowIT extends AbstractUndertowIT {

    @Override
    String version() {
        return System.getProperty("argus.test.undertow");
    }

    @Test
    void recordsEveryRequestWhenUndertowRecordsStartTime() throws Exception {
        recordsEveryRequest(System.getProperty("java.home"), true);
    }

    @Test
    void recordsEveryRequestOnTemurin25() throws Exception {
        Assumptions.assumeTrue(AgentApp.javaHomes().size() > 1, "Temurin 25 is not installed");
        recordsEveryRequest(AgentApp.javaHomes().get(1));
    }
}
