package io.argus.core.export;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.argus.core.export.ConnectionHarness.listen;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * At exit every span made is accounted for: acknowledged + dropped + lost at exit (still queued, or written but
 * never acknowledged) = made, in the agent's counters and in the exit line.
 */
class ExitAccountingTest {

    private final ConnectionHarness harness = new ConnectionHarness();

    @BeforeEach
    void captureAgentLog() {
        harness.captureAgentLog();
    }

    @AfterEach
    void stop() throws InterruptedException {
        harness.stop();
    }

    @Test
    void spansQueuedForAnUnreachableCollectorAreLostAtExit() throws Exception {
        TestExporter agent = new TestExporter("127.0.0.1:" + FakeCollector.freePort(), 512, "50ms", 64);
        agent.spans(11);
        agent.shutdown();
        assertThat(agent.counters.lostAtExitQueuedSpans.get()).isEqualTo(11);
        assertThat(agent.counters.sentSpans.get() + agent.counters.droppedSpans.get()).isZero();
        assertThat(agent.queue.made()).isEqualTo(11);
        assertThat(harness.log()).contains("[argus] spans since start: 11 made = 0 acknowledged + 0 dropped + 11 lost"
                + " at exit (11 still queued, 0 written but never acknowledged); metric batches dropped: 1");
    }

    @Test
    void theTermsAddUpWithDropsAndUnacknowledgedFrames() throws Exception {
        // a collector that takes the connection and never reads nor answers: frames are kept until the exit
        try (ServerSocket server = listen(0)) {
            TestExporter agent = new TestExporter("127.0.0.1:" + server.getLocalPort(), 10, "10ms", 64);
            try (Socket accepted = server.accept()) {
                // a burst larger than the queue (64) is dropped in part; an exporter that drains a slow burst as it
                // comes drops nothing, so burst again until some was (the exporter stops taking once the frames it
                // holds for an acknowledgement reach their bound)
                long deadline = System.nanoTime() + 10_000_000_000L;
                do {
                    agent.spans(300);
                } while (agent.counters.droppedSpans.get() == 0 && System.nanoTime() < deadline);
                // and until the connection holds frames for an acknowledgement
                while (agent.counters.unackedSpans.get() == 0 && System.nanoTime() < deadline) {
                    Thread.sleep(10);
                }
                agent.spans(20);
                agent.shutdown();
            }
            long made = agent.queue.made();
            long sent = agent.counters.sentSpans.get();
            long dropped = agent.counters.droppedSpans.get();
            long queued = agent.counters.lostAtExitQueuedSpans.get();
            long unacked = agent.counters.lostAtExitUnackedSpans.get();
            assertThat(made % 300).isEqualTo(20);
            assertThat(dropped).isPositive();
            assertThat(unacked).as("frames kept for an acknowledgement that never came").isPositive();
            assertThat(sent + dropped + queued + unacked).isEqualTo(made);
            assertThat(harness.log()).contains("[argus] spans since start: " + made + " made = " + sent + " acknowledged + "
                    + dropped + " dropped + " + (queued + unacked) + " lost at exit (" + queued + " still queued, "
                    + unacked + " written but never acknowledged)");
        }
    }

    @Test
    void theExitLineAddsUpWhileTheApplicationStillMakesSpans() throws Exception {
        TestExporter agent = new TestExporter("127.0.0.1:" + FakeCollector.freePort(), 16, "10ms", 64);
        AtomicBoolean running = new AtomicBoolean(true);
        Thread application = new Thread(() -> {
            while (running.get()) {
                agent.spans(1);
            }
        });
        application.start();
        Thread.sleep(200);
        agent.shutdown(); // as the shutdown hook does, with the application's threads still running
        running.set(false);
        application.join();
        Matcher line = Pattern.compile("spans since start: (\\d+) made = (\\d+) acknowledged \\+ (\\d+) dropped \\+ (\\d+) lost")
                .matcher(harness.log());
        assertThat(line.find()).as(harness.log()).isTrue();
        assertThat(Long.parseLong(line.group(3))).as("dropped: the queue was full").isPositive();
        assertThat(Long.parseLong(line.group(2)) + Long.parseLong(line.group(3)) + Long.parseLong(line.group(4)))
                .isEqualTo(Long.parseLong(line.group(1)));
    }
}
