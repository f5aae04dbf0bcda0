package io.argus.plugin.servlet;

import org.junit.jupiter.api.Test;

/** Tomcat 10.0 (Servlet 5.0, the oldest jakarta.servlet) with the tomcat plugin off: the servlet plugin records. */
class Tomcat10StandaloneIT extends AbstractServletIT {

    @Override
    String name() {
        return "tomcat10.0";
    }

    @Override
    String container() {
        return System.getProperty("argus.test.tomcat10.0");
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
    void namesRequestsByServletMappingWhenAsked() throws Exception {
        verifyNamesByServletMapping(true);
    }
}
