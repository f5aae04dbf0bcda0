package io.argus.plugin.servlet;

/** Undertow 2.3 servlets (Servlet 6.0) with the undertow plugin off: the servlet plugin records. */
class UndertowStandaloneIT extends AbstractServletIT {

    @Override
    String name() {
        return "undertow";
    }

    @Override
    String container() {
        return System.getProperty("argus.test.undertow");
    }

    @Override
    boolean jakarta() {
        return true;
    }

    @Override
    String containerPlugin() {
        return "undertow";
    }

    @Override
    boolean containerPluginOn() {
        return false;
    }
}
