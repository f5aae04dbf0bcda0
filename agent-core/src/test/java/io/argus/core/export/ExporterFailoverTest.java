package io.argus.core.export;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With several collectors in {@code argus.collector.address}, real sockets: the exporter fails over to the next
 * when one refuses or closes the connection, keeps spans in the bounded queue while none is reachable, and
 * every span is either received or counted as dropped.
 */
class ExporterFailoverTest {

    private final List<FakeCollector> collectors = new ArrayList<FakeCollector>();
    private TestExporter agent;

    @AfterEach
    void stop() throws IOException {
        if (agent != null) {
            agent.shutdown();
        }
        for (FakeCollector collector : collectors) {
            collector.close();
        }
    }

    private FakeCollector collector(int port) throws IOException {
        FakeCollector collector = new FakeCollector(port);
        collectors.add(collector);
        return collector;
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as(what + " within 20 s").isLessThan(deadline);
            Thread.sleep(5);
        }
    }

    private long sent() {
        return agent.counters.sentSpans.get();
    }

    private long dropped() {
        return agent.counters.droppedSpans.get();
    }

    @Test
    void aRefusingFirstCollectorIsSkippedAndTheSecondGetsTheData() throws Exception {
        int refusing = FakeCollector.freePort();
        FakeCollector second = collector(0);
        agent = new TestExporter("127.0.0.1:" + refusing + ", " + second.address(), 512, "100ms", 8192);
        agent.spans(10);
        await("spans at the second collector", () -> second.spans() == 10);
        assertThat(second.handshakes()).isEqualTo(1);
        assertThat(sent()).isEqualTo(10);
        assertThat(dropped()).isZero();
    }

    @Test
    void aCollectorThatClosesTheConnectionIsLeftForTheNextAndBackAgain() throws Exception {
        FakeCollector first = collector(0);
        FakeCollector second = collector(0);
        agent = new TestExporter(first.address() + "," + second.address(), 50, "100ms", 8192);
        await("connected to the first", () -> first.handshakes() == 1);
        agent.spans(100);
        await("spans at the first", () -> first.spans() == 100);

        // the first goes away (it still listens): the agent moves on to the second, handshake first
        first.dropConnection();
        agent.spans(100);
        await("spans at the second", () -> second.spans() == 100);
        assertThat(second.handshakes()).isEqualTo(1);
        assertThat(first.handshakes()).as("not back to the first").isEqualTo(1);

        // and from the second on to the first again
        second.dropConnection();
        agent.spans(100);
        await("spans at the first again", () -> first.spans() == 200);
        assertThat(first.handshakes()).isEqualTo(2);

        int received = first.spans() + second.spans();
        assertThat(received).isEqualTo(300);
        assertThat(sent()).isEqualTo(received);
        assertThat(sent() + dropped()).as("every span received or counted as dropped").isEqualTo(300);
    }

    @Test
    void withAllCollectorsDownSpansWaitInTheBoundedQueueAndFlowWhenOneComesBack() throws Exception {
        int firstPort = FakeCollector.freePort();
        int secondPort = FakeCollector.freePort();
        agent = new TestExporter("127.0.0.1:" + firstPort + ",127.0.0.1:" + secondPort, 512, "100ms", 64);
        long start = System.nanoTime();
        agent.spans(300); // nobody listens: 64 wait in the queue, the rest are dropped and counted
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).as("never blocks").isLessThan(1000);
        assertThat(dropped()).isEqualTo(300 - 64);
        Thread.sleep(1500); // several attempts on each address
        assertThat(agent.queue.size()).isEqualTo(64);
        assertThat(dropped()).isEqualTo(300 - 64);
        assertThat(sent()).isZero();

        FakeCollector second = collector(secondPort);
        await("the queued spans at the collector that came back", () -> second.spans() == 64);
        agent.spans(10);
        await("new spans too", () -> second.spans() == 74);
        assertThat(second.handshakes()).isEqualTo(1);
        assertThat(sent()).isEqualTo(74);
        assertThat(sent() + dropped()).isEqualTo(310);
    }
}
