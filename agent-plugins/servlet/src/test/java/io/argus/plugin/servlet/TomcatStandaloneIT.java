package io.argus.plugin.servlet;

import org.junit.jupiter.api.Test;

/** Tomcat 9.0, newest release (Servlet 4.0, the newest javax.servlet) with the tomcat plugin off: the servlet plugin records. */
class TomcatStandaloneIT extends AbstractServletIT {

    @Override
    String name() {
        return "tomcat9";
    }

    @Override
    String container() {
        return System.getProperty("argus.test.tomcat9");
    }

    @Override
    boolean jakarta() {
        return false;
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
    void namesRequestsByServletMappingWhenAsked() throws Exception {
        verifyNamesByServletMapping(true);
    }
}
