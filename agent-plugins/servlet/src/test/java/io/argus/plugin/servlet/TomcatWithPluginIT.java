package io.argus.plugin.servlet;

import org.junit.jupiter.api.Test;

/** Tomcat 9.0 (Servlet 4.0) with the tomcat plugin on: the servlet plugin must add nothing. */
class TomcatWithPluginIT extends AbstractServletIT {

    @Override
    String name() {
        return "tomcat9-withplugin";
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
        return true;
    }

    @Test
    void namesRequestsByServletMappingWhenAsked() throws Exception {
        verifyNamesByServletMapping(true);
    }

    @Test
    void recordsEveryRequestOnceWhenTheRequestClassHasNoFields() throws Exception {
        recordsEveryRequestOnceWithTheStateInTheMap();
    }
}
