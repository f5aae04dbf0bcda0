package io.argus.plugin.jetty;

/** The newest Jetty 12.0.x: completeStream lives in HttpChannelState. */
class Jetty120IT extends AbstractJetty12IT {

    @Override
    String versionProperty() {
        return "argus.test.jetty12.0";
    }
}
