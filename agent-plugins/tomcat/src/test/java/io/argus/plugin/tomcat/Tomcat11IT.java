package io.argus.plugin.tomcat;

import io.argus.testing.AgentApp;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** Tomcat 11.0, newest release (jakarta.servlet); the basic scenario also runs on Temurin 25. */
class Tomcat11IT extends AbstractTomcatIT {

    @Override
    String version() {
        return System.getProperty("argus.test.tomcat11");
    }

    @Override
    boolean jakarta() {
        return true;
    }

    @Test
    void recordsEveryRequestOnTemurin25() throws Exception {
        Assumptions.assumeTrue(AgentApp.javaHomes().size() > 1, "Temurin 25 is not installed");
        recordsEveryRequest(AgentApp.javaHomes().get(1));
    }
}
