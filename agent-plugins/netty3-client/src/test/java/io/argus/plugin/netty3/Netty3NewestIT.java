package io.argus.plugin.netty3;

import io.argus.plugin.netty3.app.Netty3ClientApp;
import io.argus.testing.AgentApp;
import io.argus.testing.ClientAppRun;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Netty 3.10.6, the version Apache Druid 33 ships; also run on Temurin 25 and at 0% sampling. */
class Netty3NewestIT extends AbstractNetty3ClientIT {

    @Override
    String version() {
        return System.getProperty("argus.test.netty3.newest");
    }

    @Test
    void tracesAndCountsOnTheNewestJdk() {
        ClientAppRun run = run("on", AgentApp.newestJavaHome(), 100, Map.of());
        assertTracedCall(run);
        assertCounts(run);
    }

    @Test
    void atZeroPercentOnlyTheSampledInboundContextIsPropagatedAndEveryCallIsCounted() {
        ClientAppRun run = run("zero", JDK, 0, Map.of());
        // roots without a sampled inbound context are not traced: no client span, no header
        for (String tag : List.of("traced", "chunked", "plain0", "conc0_0", "pipe0")) {
            assertThat(run.receivedTraceparent(tag)).as(tag).isNull();
        }
        assertThat(run.root("traced")).isNull();
        // a sampled inbound context is honoured: the downstream joins it under the client span
        assertInboundContextFollowed(run, "tracestate");
        assertCounts(run);
        assertThat(Netty3ClientApp.PLAIN_CALLS).isPositive();
    }
}
