package io.argus.plugin.jettyclient;

/** The oldest supported Jetty 9.4 client (9.4.0), running the 9.4 test application. */
class Jetty9OldestIT extends AbstractJettyClientIT {

    @Override
    String version() {
        return System.getProperty("argus.test.jetty9.oldest");
    }

    @Override
    String mainClass() {
        return "io.argus.plugin.jettyclient.app.Jetty9ClientApp";
    }

    @Override
    String appClasses() {
        return System.getProperty("argus.test.jetty9.app");
    }
}
