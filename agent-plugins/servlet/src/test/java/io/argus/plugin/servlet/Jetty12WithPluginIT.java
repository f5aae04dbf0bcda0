package io.argus.plugin.servlet;

import org.junit.jupiter.api.Test;

/**
 * Jetty 12.1 with the ee10 environment (Servlet 6.0) and the jetty plugin on: the servlet plugin must
 * add nothing (it marks ee10's {@code ServletApiRequest} objects as recorded by the jetty plugin).
 */
class Jetty12WithPluginIT extends AbstractServletIT {

    @Override
    String name() {
        return "jetty12-withplugin";
    }

    @Override
    String container() {
        return System.getProperty("argus.test.jetty12");
    }

    @Override
    boolean jakarta() {
        return true;
    }

    @Override
    String containerPlugin() {
        return "jetty";
    }

    @Override
    boolean containerPluginOn() {
        return true;
    }

    @Override
    protected String mainClass() {
        return "io.argus.plugin.servlet.app.Jetty12Main";
    }

    /** ee10 turns a servlet's exception into its 500 error page inside Jetty: the jetty plugin sees the status only. */
    @Override
    boolean exceptionTagged() {
        return false;
    }

    /** The jetty plugin does not make the span current in async re-dispatches (see its README). */
    @Override
    boolean asyncDispatchTraced() {
        return false;
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
