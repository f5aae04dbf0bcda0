package io.argus.plugin.jetty;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Jetty 12 core handlers. The application is compiled against the oldest supported Jetty 12 into
 * target/jetty12-app-classes and run with one version's jars from target/jetty/&lt;version&gt;/.
 */
abstract class AbstractJetty12IT extends AbstractJettyIT {

    /** The system property that holds this class's Jetty version. */
    abstract String versionProperty();

    @Override
    String jetty() {
        return System.getProperty(versionProperty());
    }

    @Override
    protected String mainClass() {
        return "io.argus.plugin.jetty.app12.Jetty12App";
    }

    @Override
    protected String classpath() {
        Path app = Paths.get(System.getProperty("argus.test.jetty12.app"));
        Path jars = Paths.get(System.getProperty("argus.test.jetty.jars"), jetty());
        assertThat(Files.isDirectory(jars)).as("jars of Jetty %s in %s", jetty(), jars).isTrue();
        return app + File.pathSeparator + jars(jars);
    }
}
