package io.argus.plugin.servlet;

/** Jetty 9.4 (Servlet 3.1) with the jetty plugin on: the servlet plugin must add nothing. */
class JettyWithPluginIT extends AbstractServletIT {

    @Override
    String name() {
        return "jetty9-withplugin";
    }

    @Override
    String container() {
        return System.getProperty("argus.test.jetty9");
    }

    @Override
    boolean jakarta() {
        return false;
    }

    @Override
    String containerPlugin() {
        return "jetty";
    }

    @Override
    boolean containerPluginOn() {
        return true;
    }

    /** The jetty plugin does not make the span current in async re-dispatches (see its README). */
    @Override
    boolean asyncDispatchTraced() {
        return false;
    }
}
