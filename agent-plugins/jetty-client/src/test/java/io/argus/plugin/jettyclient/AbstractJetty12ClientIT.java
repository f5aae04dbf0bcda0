package io.argus.plugin.jettyclient;

import java.io.File;

/** Jetty 12: the application in target/jetty12-app-classes (compiled against 12.0.0) with one version's jars. */
abstract class AbstractJetty12ClientIT extends AbstractJettyClientIT {

    @Override
    String mainClass() {
        return "io.argus.plugin.jettyclient.app12.Jetty12ClientApp";
    }

    @Override
    String appClasses() {
        // the shared Downstream server lives with the 9.4 application's classes
        return System.getProperty("argus.test.jetty12.app") + File.pathSeparator + System.getProperty("argus.test.jetty9.app");
    }
}
