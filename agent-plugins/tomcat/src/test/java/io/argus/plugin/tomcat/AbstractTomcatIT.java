package io.argus.plugin.tomcat;

import io.argus.testing.AbstractContainerPluginIT;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.nio.file.Paths;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The tomcat plugin against one real Tomcat version: the embedded test application
 * ({@code src/test/app}, the endpoints of {@link AbstractContainerPluginIT}) runs in a forked JVM with
 * the assembled agent (target/agent) and reports to a real collector in this JVM; every assertion
 * reads the collector's JSON API.
 */
abstract class AbstractTomcatIT extends AbstractContainerPluginIT {

    /** The Tomcat version under test: a folder name under target/tomcat. */
    abstract String version();

    /** Whether this Tomcat uses jakarta.servlet (10+) rather than javax.servlet (9). */
    abstract boolean jakarta();

    @Override
    protected String mainClass() {
        return "io.argus.plugin.tomcat.app.TomcatApp";
    }

    @Override
    protected String classpath() {
        String app = System.getProperty(jakarta() ? "argus.test.app.jakarta" : "argus.test.app.javax");
        return app + File.pathSeparator + Paths.get(System.getProperty("argus.test.tomcat.jars"), version(), "*");
    }

    @Override
    protected String servicePrefix() {
        return "tomcat-" + version();
    }

    // ---- spans, metrics, propagation, async, isolation

    @Test
    void recordsEveryRequestAt100Percent() throws Exception {
        recordsEveryRequest(JDK);
    }

    void recordsEveryRequest(String javaHome) throws Exception {
        String service = service("all", javaHome);
        verifyRecordsEveryRequest(service, start(service, javaHome, 100), "tomcat", 3);
    }

    /**
     * As with real fields, when the coyote request's state lives in the agent's map (its class loaded
     * before the agent was up): the coyote request is then no class the agent changed.
     */
    @Test
    void recordsEveryRequestWithTheStateInTheMap() throws Exception {
        String service = service("mapped", JDK);
        verifyRecordsEveryRequest(service, start(service, JDK, 100).agent("argus.state.ownerFields", false), "tomcat", 2);
    }

    @Test
    void joinsInboundSampledContextAtZeroPercentWithTheStateInTheMap() throws Exception {
        verifyJoinsInboundSampledContextAtZeroPercent("argus.state.ownerFields", "false");
    }

    // ---- inbound context is honoured at 0%, and no context is left on the worker thread

    @Test
    void joinsInboundSampledContextAtZeroPercent() throws Exception {
        verifyJoinsInboundSampledContextAtZeroPercent();
    }

    // ---- switched off

    @Test
    void recordsNothingWhenDisabled() throws Exception {
        verifyRecordsNothingWhenDisabled("tomcat", plugins -> assertThat(plugins).isEmpty());
    }
}
