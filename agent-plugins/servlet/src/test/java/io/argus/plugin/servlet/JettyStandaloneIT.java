package io.argus.plugin.servlet;

/** Jetty 9.4 (Servlet 3.1, the oldest javax.servlet tested) with the jetty plugin off: the servlet plugin records. */
class JettyStandaloneIT extends AbstractServletIT {

    @Override
    String name() {
        return "jetty9";
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
        return false;
    }
}
