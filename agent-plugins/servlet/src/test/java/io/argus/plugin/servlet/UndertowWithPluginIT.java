package io.argus.plugin.servlet;

/** Undertow 2.3 servlets (Servlet 6.0) with the undertow plugin on: the servlet plugin must add nothing. */
class UndertowWithPluginIT extends AbstractServletIT {

    @Override
    String name() {
        return "undertow-withplugin";
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
        return true;
    }

    /**
     * Undertow's RequestDispatcher.forward() leaves the exchange with the target's path (unless the
     * deployment preserves paths on forward), and that is the path Undertow reports at the end.
     */
    @Override
    String forwardMetricPath() {
        return "/hello/forwarded";
    }

    /** An exception a servlet throws stays inside undertow-servlet, which answers 500 itself. */
    @Override
    boolean exceptionTagged() {
        return false;
    }
}
