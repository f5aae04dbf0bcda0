package io.argus.plugin.jetty;

/** Jetty 12.1.x, the parent's ${jetty12.version}. */
class Jetty121IT extends AbstractJetty12IT {

    @Override
    String versionProperty() {
        return "argus.test.jetty12.1";
    }
}
