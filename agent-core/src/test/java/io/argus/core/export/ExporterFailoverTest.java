package io.argus.core.export;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With several collectors in {@code argus.collector.address}, real sockets: the exporter fails over to the next
 * when one refuses or closes the connection, keeps spans in the bounded queue while none is reachable, writes
 * what a lost collector had not acknowledged to the next, and every span is either acknowledged or counted as
 * dropped.
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
        await("acknowledged", () -> sent() == 10);
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
        await("acknowledged: nothing to send again", () -> sent() == 100);

        // the first goes away (it still listens): the agent moves on to the second, handshake first
        first.dropConnection();
        agent.spans(100);
        await("spans at the second", () -> second.spans() == 100);
        assertThat(second.handshakes()).isEqualTo(1);
        assertThat(first.handshakes()).as("not back to the first").isEqualTo(1);
        await("acknowledged: nothing to send again", () -> sent() == 200);

        // and from the second on to the first again
        second.dropConnection();
        agent.spans(100);
        await("spans at the first again", () -> first.spans() == 200);
        assertThat(first.handshakes()).isEqualTo(2);

        int received = first.spans() + second.spans();
        assertThat(received).isEqualTo(300);
        await("acknowledged", () -> sent() == received);
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
        await("acknowledged", () -> sent() == 74);
        assertThat(sent() + dropped()).isEqualTo(310);
    }

    @Test
    void spansALostCollectorHadNotAcknowledgedGoToTheNextAndCountAsSentOnce() throws Exception {
        FakeCollector first = collector(0);
        FakeCollector second = collector(0);
        agent = new TestExporter(first.address() + "," + second.address(), 50, "100ms", 8192);
        await("connected to the first", () -> first.handshakes() == 1);
        agent.spans(100);
        await("acknowledged by the first", () -> sent() == 100);

        // the first reads the next spans but goes away before acknowledging them (it may have stored them)
        first.holdAcks();
        agent.spans(100);
        await("read by the first", () -> first.spans() == 200);
        Thread.sleep(200);
        assertThat(sent()).as("not acknowledged: not sent yet").isEqualTo(100);
        first.dropConnection();

        await("written again to the second", () -> second.spans() == 100);
        await("acknowledged by the second", () -> sent() == 200);
        Set<String> distinct = new HashSet<>(first.spanIds());
        distinct.addAll(second.spanIds());
        assertThat(distinct).as("every span of the application").hasSize(200);
        assertThat(first.spanIds().subList(100, 200)).as("the same spans, in the same order")
                .isEqualTo(second.spanIds());
        assertThat(agent.counters.resentSpans.get()).isEqualTo(100);
        assertThat(sent() + dropped()).isEqualTo(200);
        assertThat(dropped()).isZero();
    }
}
