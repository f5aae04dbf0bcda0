package io.argus.plugin.netty4server;

import io.argus.testing.AgentApp;
import org.junit.jupiter.api.Test;

/** The newest Netty 4.1 (the build's netty.version); the basic scenario also runs on Temurin 25. */
class Netty41NewestIT extends AbstractNetty4ServerIT {

    @Override
    String version() {
        return System.getProperty("argus.test.netty41.newest");
    }

    @Test
    void recordsEveryRequestAt100PercentOnTheNewestJdk() throws Exception {
        recordsEveryRequestAt100Percent(AgentApp.newestJavaHome());
    }
}
