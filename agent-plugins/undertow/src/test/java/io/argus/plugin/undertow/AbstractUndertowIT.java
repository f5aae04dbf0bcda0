package io.argus.plugin.undertow;

import io.argus.testing.AbstractContainerPluginIT;
import io.argus.testing.AgentApp;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.nio.file.Paths;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The undertow plugin against one real Undertow version: the test application ({@code app.UndertowApp},
 * the endpoints of {@link AbstractContainerPluginIT}) runs in a forked JVM with the assembled agent
 * (target/agent) and reports to a real collector in this JVM; every assertion reads the collector's
 * JSON API.
 */
abstract class AbstractUndertowIT extends AbstractContainerPluginIT {

    /** The Undertow version under test: a folder name under target/undertow. */
    abstract String version();

    @Override
    protected String mainClass() {
        return "io.argus.plugin.undertow.app.UndertowApp";
    }

    @Override
    protected String classpath() {
        return System.getProperty("argus.test.classes") + File.pathSeparator
                + Paths.get(System.getProperty("argus.test.undertow.jars"), version(), "*");
    }

    @Override
    protected String servicePrefix() {
        return "undertow-" + version();
    }

    // ---- spans, metrics, propagation, async, isolation

    @Test
    void recordsEveryRequestAt100Percent() throws Exception {
        recordsEveryRequest(JDK);
    }

    void recordsEveryRequest(String javaHome) throws Exception {
        recordsEveryRequest(javaHome, false);
    }

    /** @param recordStartTime whether the application turns on UndertowOptions.RECORD_REQUEST_START_TIME */
    void recordsEveryRequest(String javaHome, boolean recordStartTime) throws Exception {
        String service = service(recordStartTime ? "all-recordstart" : "all", javaHome);
        AgentApp.Builder application = start(service, javaHome, 100);
        if (recordStartTime) {
            application.args("--record-request-start-time");
        }
        verifyRecordsEveryRequest(service, application, "undertow", 2);
    }

    // ---- inbound context is honoured at 0%, and no context is left on the worker thread

    @Test
    void joinsInboundSampledContextAtZeroPercent() throws Exception {
        verifyJoinsInboundSampledContextAtZeroPercent();
    }

    // ---- switched off

    @Test
    void recordsNothingWhenDisabled() throws Exception {
        verifyRecordsNothingWhenDisabled("undertow", plugins -> assertThat(plugins).isEmpty());
    }
}
