package io.argus.plugin.jetty;

import io.argus.plugin.jetty.app.Jetty9App;
import io.argus.testing.AgentApp;

/** Jetty 9.4 (the version Apache Druid ships), servlets on jetty-servlet, from the test class path. */
class Jetty9IT extends AbstractJettyIT {

    @Override
    String jetty() {
        return System.getProperty("argus.test.jetty9.version", "9.4");
    }

    @Override
    protected String mainClass() {
        return Jetty9App.class.getName();
    }

    @Override
    protected String classpath() {
        return AgentApp.applicationClasspath();
    }
}
