package io.argus.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import io.argus.testing.AgentApp;
import io.argus.testing.TestCollector;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every span the agent makes is accounted for at exit: acknowledged + dropped + lost at exit (still queued, or
 * written but never acknowledged) = made, each term in the exit line. Here the collector never completes the TLS
 * handshake (it serves plain TCP), so the agent's 11 traced requests are all still queued when it exits.
 */
class SpanAccountingIT {
    static final int REQUESTS = 11;
    static final Pattern EXIT_LINE = Pattern.compile("\\[argus\\] spans since start: (\\d+) made = (\\d+) acknowledged"
            + " \\+ (\\d+) dropped \\+ (\\d+) lost at exit \\((\\d+) still queued, (\\d+) written but never"
            + " acknowledged\\)");

    static List<String> javaHomes() {
        return AgentApp.javaHomes();
    }

    @ParameterizedTest
    @MethodSource("javaHomes")
    void spansQueuedWhenTheAgentExitsAreCountedAsLostAtExit(String javaHome) throws Exception {
        try (TestCollector collector = TestCollector.start()) {
            Map.Entry<AgentApp, Integer> solo = SampleCluster.startService(javaHome,
                    "accounting", app -> app.collector(collector.ingestPort()).samplingRate(100)
                            .agent("argus.collector.tls", "true"),
                    "--name", "solo", "--port", "0");
            try (AgentApp app = solo.getKey()) {
                for (int i = 0; i < REQUESTS; i++) {
                    assertThat(SampleCluster.get(solo.getValue(), "/solo/hello")).isEqualTo(200);
                }
                // SIGTERM, so that the agent's shutdown hook runs; Process.destroy() would also close the pipe
                ProcessHandle.of(app.pid()).ifPresent(ProcessHandle::destroy);
                Matcher exit = awaitOutput(app, EXIT_LINE);
                long made = Long.parseLong(exit.group(1));
                long acknowledged = Long.parseLong(exit.group(2));
                long dropped = Long.parseLong(exit.group(3));
                long lost = Long.parseLong(exit.group(4));
                assertThat(made).as(exit.group()).isEqualTo(REQUESTS);
                assertThat(acknowledged + dropped + lost).as("the terms add up").isEqualTo(made);
                assertThat(lost).isEqualTo(REQUESTS);
                assertThat(Long.parseLong(exit.group(5))).as("still queued").isEqualTo(REQUESTS);
                assertThat(Long.parseLong(exit.group(6))).as("written, never acknowledged").isZero();
            }
        }
    }

    /** Once the process ended: its last lines may still be on their way through the output pump. */
    static Matcher awaitOutput(AgentApp app, Pattern pattern) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        do {
            Matcher m = pattern.matcher(app.output());
            if (m.find()) {
                return m;
            }
            Thread.sleep(100);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("no line /" + pattern + "/ at exit; output:\n" + app.output());
    }
}
