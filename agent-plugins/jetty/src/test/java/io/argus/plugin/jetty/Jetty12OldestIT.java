package io.argus.plugin.jetty;

/** The oldest supported Jetty 12.0 (12.0.0): completeStream still lives in HttpChannelState$HandlerInvoker. */
class Jetty12OldestIT extends AbstractJetty12IT {

    @Override
    String versionProperty() {
        return "argus.test.jetty12.oldest";
    }
}
