package io.argus.core.export;

import io.argus.core.AgentCounters;
import io.argus.core.config.CollectorAddress;
import io.argus.protocol.Ack;
import io.argus.protocol.CollectorFrame;
import io.argus.protocol.Frame;
import io.argus.protocol.Handshake;
import io.argus.protocol.HandshakeReply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.argus.core.export.ConnectionHarness.await;
import static io.argus.core.export.ConnectionHarness.listen;
import static io.argus.core.export.ConnectionHarness.readFrame;
import static io.argus.core.export.ConnectionHarness.withLength;
import static io.argus.core.export.ConnectionHarness.write;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Acknowledgements over real sockets, the connection polled by a thread as the exporter polls it, the collector
 * side scripted: span frames count as sent once acknowledged, what was not acknowledged when a connection is lost
 * is written again first and in order on the next one, the kept bytes are bounded, and a collector that never
 * answers the handshake is sent to as before.
 */
class CollectorConnectionAcksTest {

    private static final byte[] HANDSHAKE = withLength(Frame.newBuilder().setHandshake(Handshake.newBuilder()
            .setProtocolVersion(1).setService("acks-test").setAcks(true)).build().toByteArray());

    private final AgentCounters counters = new AgentCounters();
    private final ConnectionHarness harness = new ConnectionHarness();
    private CollectorConnection connection;

    @BeforeEach
    void captureAgentLog() {
        harness.captureAgentLog();
    }

    @AfterEach
    void stop() throws InterruptedException {
        harness.stopDriving();
        if (connection != null) {
            connection.close(100);
        }
        harness.stop();
    }

    /** A frame of {@code size} bytes in all, length prefix included, marked by {@code marker}. */
    private static byte[] frame(int size, int marker) {
        byte[] frame = new byte[size];
        ByteBuffer.wrap(frame).putInt(size - 4);
        Arrays.fill(frame, 4, size, (byte) marker);
        return frame;
    }

    private static void reply(Socket agent) throws IOException {
        write(agent, CollectorFrame.newBuilder().setHandshakeReply(HandshakeReply.newBuilder().setAcks(true)).build());
    }

    private static void ack(Socket agent, long sequence) throws IOException {
        write(agent, CollectorFrame.newBuilder().setAck(Ack.newBuilder().setSequence(sequence)).build());
    }

    /** The agent's stream once its handshake, which comes first and asks for acknowledgements, has been read. */
    private static DataInputStream afterHandshake(Socket agent) throws IOException {
        DataInputStream in = new DataInputStream(agent.getInputStream());
        byte[] first = readFrame(in);
        assertThat(first).as("handshake first").isEqualTo(HANDSHAKE);
        return in;
    }

    /** A connection to {@code ports}, asking for acknowledgements, polled every 10 ms. */
    private CollectorConnection started(List<Integer> ports, int maxUnackedBytes, long replyTimeoutMillis) {
        CollectorAddress[] addresses = new CollectorAddress[ports.size()];
        for (int i = 0; i < addresses.length; i++) {
            addresses[i] = new CollectorAddress("127.0.0.1", ports.get(i));
        }
        connection = harness.drive(new CollectorConnection(ConnectionSettings.to(Arrays.asList(addresses), HANDSHAKE)
                .acknowledged(counters, maxUnackedBytes, replyTimeoutMillis)
                .maxPendingBytes(1 << 20)
                .maxBackoffMillis(200)
                .build()));
        return connection;
    }

    /** Reads the handshake, answers it, and waits until the agent knows that frames will be acknowledged. */
    private static DataInputStream acknowledging(Socket agent, CollectorConnection c) throws Exception {
        DataInputStream in = afterHandshake(agent);
        reply(agent);
        await("acknowledging", c::acknowledging);
        return in;
    }

    @Test
    void whatWasNotAcknowledgedIsWrittenFirstAndInOrderToTheNextCollector() throws Exception {
        try (ServerSocket a = listen(0); ServerSocket b = listen(0)) {
            CollectorConnection c = started(Arrays.asList(a.getLocalPort(), b.getLocalPort()), 1 << 20, 5000);
            try (Socket agent = a.accept()) {
                DataInputStream in = acknowledging(agent, c);
                for (int i = 1; i <= 5; i++) {
                    assertThat(c.sendSpans(frame(100, i), i)).isTrue();
                }
                for (int i = 1; i <= 5; i++) {
                    assertThat(readFrame(in)).isEqualTo(frame(100, i));
                }
                assertThat(counters.sentSpans.get()).as("nothing acknowledged yet").isZero();
                ack(agent, 2);
                await("frames 1 and 2 acknowledged", () -> counters.sentSpans.get() == 1 + 2);
                assertThat(c.keptBytes()).isEqualTo(300);
            } // the collector goes away with frames 3 to 5 read but not acknowledged

            try (Socket agent = b.accept()) {
                DataInputStream in = afterHandshake(agent);
                for (int i = 3; i <= 5; i++) {
                    assertThat(readFrame(in)).as("frame " + i + " again").isEqualTo(frame(100, i));
                }
                await("connected to the second", c::isConnected);
                reply(agent);
                await("acknowledging", c::acknowledging);
                assertThat(c.sendSpans(frame(100, 6), 6)).isTrue();
                assertThat(readFrame(in)).isEqualTo(frame(100, 6));
                ack(agent, 4); // numbered again from 1 on this connection: 3, 4, 5 and 6
                await("everything acknowledged", () -> counters.sentSpans.get() == 21);
                assertThat(c.keptBytes()).isZero();
            }
        }
        assertThat(counters.resentSpans.get()).isEqualTo(3 + 4 + 5);
        assertThat(counters.droppedSpans.get()).isZero();
    }

    @Test
    void aCollectorThatNeverAnswersIsSentToAsBeforeAndALateAnswerTurnsAcknowledgementsOn() throws Exception {
        try (ServerSocket server = listen(0)) {
            CollectorConnection c = started(Arrays.asList(server.getLocalPort()), 1 << 20, 300);
            try (Socket agent = server.accept()) {
                DataInputStream in = afterHandshake(agent);
                await("connected", c::isConnected);
                long start = System.nanoTime();
                assertThat(c.sendSpans(frame(100, 1), 5)).isTrue();
                assertThat(readFrame(in)).isEqualTo(frame(100, 1));
                assertThat(c.keptBytes()).as("kept while the answer may still come").isEqualTo(100);
                await("given up waiting", () -> counters.sentSpans.get() == 5);
                assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isGreaterThanOrEqualTo(250);
                assertThat(c.keptBytes()).isZero();
                assertThat(c.acknowledging()).isFalse();
                assertThat(harness.log()).contains("collector 127.0.0.1:" + server.getLocalPort()
                        + " does not acknowledge frames (no answer to the handshake within 300 ms)");
                assertThat(c.sendSpans(frame(100, 2), 7)).isTrue();
                assertThat(counters.sentSpans.get()).as("sent as soon as taken, as before").isEqualTo(12);
                assertThat(readFrame(in)).isEqualTo(frame(100, 2));
            }
            try (Socket agent = server.accept()) {
                DataInputStream in = afterHandshake(agent);
                await("connected again", c::isConnected);
                assertThat(c.sendSpans(frame(100, 3), 1)).isTrue();
                assertThat(readFrame(in)).as("nothing written again: nothing was kept").isEqualTo(frame(100, 3));
                assertThat(counters.resentSpans.get()).isZero();
                Thread.sleep(400); // past the reply timeout again
                assertThat(counters.sentSpans.get()).isEqualTo(13);

                reply(agent); // late: frames from now on are kept until acknowledged
                await("acknowledging after all", c::acknowledging);
                assertThat(c.sendSpans(frame(100, 4), 100)).isTrue();
                assertThat(readFrame(in)).isEqualTo(frame(100, 4));
                Thread.sleep(100);
                assertThat(counters.sentSpans.get()).isEqualTo(13);
                ack(agent, 2);
                await("acknowledged", () -> counters.sentSpans.get() == 113);
            }
        }
        assertThat(counters.droppedSpans.get()).isZero();
    }

    @Test
    void keptBytesAreBoundedAndRoomComesBackWithTheAcknowledgements() throws Exception {
        int frameSize = 16 << 10;
        try (ServerSocket server = listen(0)) {
            CollectorConnection c = started(Arrays.asList(server.getLocalPort()), 64 << 10, 5000);
            try (Socket agent = server.accept()) {
                DataInputStream in = acknowledging(agent, c);
                int accepted = 0;
                long slowestSendNanos = 0;
                for (int i = 0; i < 100; i++) {
                    long start = System.nanoTime();
                    boolean taken = c.sendSpans(frame(frameSize, i), 10);
                    slowestSendNanos = Math.max(slowestSendNanos, System.nanoTime() - start);
                    if (!taken) {
                        break;
                    }
                    accepted++;
                }
                assertThat(accepted).as("frames kept within 64 KiB").isEqualTo(4);
                assertThat(c.keptBytes()).isEqualTo(64 << 10);
                assertThat(c.hasRoom()).isFalse();
                assertThat(TimeUnit.NANOSECONDS.toMillis(slowestSendNanos)).as("never blocks").isLessThan(500);
                for (int i = 0; i < accepted; i++) {
                    assertThat(readFrame(in)).isEqualTo(frame(frameSize, i));
                }

                ack(agent, 2);
                await("room again", c::hasRoom);
                assertThat(counters.sentSpans.get()).isEqualTo(20);
                assertThat(c.sendSpans(frame(frameSize, 50), 10)).isTrue();
                assertThat(c.sendSpans(frame(frameSize, 51), 10)).isTrue();
                assertThat(c.sendSpans(frame(frameSize, 52), 10)).isFalse();

                // at exit the acknowledgements are waited for, boundedly: frame 5 comes in time, frame 6 never
                Thread acker = new Thread(() -> {
                    try {
                        Thread.sleep(200);
                        ack(agent, 5);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                acker.start();
                long start = System.nanoTime();
                harness.stopDriving();
                c.close(600);
                acker.join();
                assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isBetween(550L, 3000L);
            }
        }
        // frames 1 to 5 acknowledged; the sixth never was: its spans are lost at exit, not dropped
        assertThat(counters.sentSpans.get()).isEqualTo(50);
        assertThat(counters.lostAtExitUnackedSpans.get()).isEqualTo(10);
        assertThat(counters.droppedSpans.get()).isZero();
    }
}
