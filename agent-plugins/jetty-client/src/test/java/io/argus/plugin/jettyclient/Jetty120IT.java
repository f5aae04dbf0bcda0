package io.argus.plugin.jettyclient;

/** The newest Jetty 12.0.x. */
class Jetty120IT extends AbstractJetty12ClientIT {

    @Override
    String version() {
        return System.getProperty("argus.test.jetty12.0");
    }
}
