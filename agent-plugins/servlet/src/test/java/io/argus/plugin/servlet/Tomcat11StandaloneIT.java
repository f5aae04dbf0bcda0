package io.argus.plugin.servlet;

import io.argus.testing.AgentApp;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** Tomcat 11.0, newest release (Servlet 6.1, the newest jakarta.servlet) with the tomcat plugin off: the servlet plugin records; also on Temurin 25. */
class Tomcat11StandaloneIT extends AbstractServletIT {

    @Override
    String name() {
        return "tomcat11";
    }

    @Override
    String container() {
        return System.getProperty("argus.test.tomcat11");
    }

    @Override
    boolean jakarta() {
        return true;
    }

    @Override
    String containerPlugin() {
        return "tomcat";
    }

    @Override
    boolean containerPluginOn() {
        return false;
    }

    @Test
    void joinsInboundContextAtZeroPercent() throws Exception {
        verifyJoinsInboundSampledContextAtZeroPercent();
    }

    @Test
    void recordsNothingWhenSwitchedOff() throws Exception {
        recordsNothingWhenDisabled();
    }

    @Test
    void recordsEveryRequestOnceOnTemurin25() throws Exception {
        Assumptions.assumeTrue(AgentApp.javaHomes().size() > 1, "Temurin 25 is not installed");
        recordsEveryRequestOnce(AgentApp.javaHomes().get(1));
    }
}
