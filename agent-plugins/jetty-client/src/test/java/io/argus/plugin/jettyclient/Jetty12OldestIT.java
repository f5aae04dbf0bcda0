package io.argus.plugin.jettyclient;

/** The oldest supported Jetty 12 (12.0.0). */
class Jetty12OldestIT extends AbstractJetty12ClientIT {

    @Override
    String version() {
        return System.getProperty("argus.test.jetty12.oldest");
    }
}
