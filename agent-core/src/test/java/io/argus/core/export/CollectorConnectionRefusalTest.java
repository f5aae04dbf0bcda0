package io.argus.core.export;

import io.argus.core.AgentCounters;
import io.argus.core.config.CollectorAddress;
import io.argus.protocol.CollectorFrame;
import io.argus.protocol.Frame;
import io.argus.protocol.Handshake;
import io.argus.protocol.HandshakeReply;
import io.argus.protocol.Refusal;
import io.argus.protocol.RefusalReason;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static io.argus.core.export.ConnectionHarness.count;
import static io.argus.core.export.ConnectionHarness.listen;
import static io.argus.core.export.ConnectionHarness.readFrame;
import static io.argus.core.export.ConnectionHarness.withLength;
import static io.argus.core.export.ConnectionHarness.write;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A collector that refuses the agent and says why (a {@code Refusal} before it closes), over real sockets, the
 * collector side scripted: the agent logs the cause once, as an ERROR naming the setting, backs off as for an outage
 * (no "reachable again" between refusals), and counts as up only once a collector accepts its handshake.
 */
class CollectorConnectionRefusalTest {

    private static final byte[] HANDSHAKE = withLength(Frame.newBuilder().setHandshake(Handshake.newBuilder()
            .setProtocolVersion(1).setService("refused-test").setToken("wrong").setAcks(true)).build().toByteArray());

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

    private static CollectorFrame refusal(RefusalReason reason, String message) {
        return CollectorFrame.newBuilder().setRefusal(Refusal.newBuilder().setReason(reason).setMessage(message))
                .build();
    }

    /** Accepts connections for {@code millis}, answering each handshake with {@code answer}, then closing. */
    private static List<Long> serve(ServerSocket server, long millis, CollectorFrame answer) throws IOException {
        List<Long> accepted = Collections.synchronizedList(new ArrayList<Long>());
        long end = System.currentTimeMillis() + millis;
        server.setSoTimeout(50);
        while (System.currentTimeMillis() < end) {
            Socket agent;
            try {
                agent = server.accept();
            } catch (SocketTimeoutException none) {
                continue;
            }
            try (Socket a = agent) {
                accepted.add(System.currentTimeMillis());
                readFrame(new DataInputStream(a.getInputStream()));
                write(a, answer);
            }
        }
        return accepted;
    }

    private CollectorConnection connect(int port) {
        connection = new CollectorConnection(
                ConnectionSettings.to(Collections.singletonList(new CollectorAddress("127.0.0.1", port)), HANDSHAKE)
                        .acknowledged(new AgentCounters(), 1 << 20, CollectorConnection.REPLY_TIMEOUT_MILLIS)
                        .maxPendingBytes(1 << 20)
                        .maxBackoffMillis(30_000)
                        .build());
        return harness.drive(connection);
    }

    @Test
    void wrongTokenIsLoggedOnceAsAnErrorNamingTheKeyAndRetriedWithBackoff() throws Exception {
        try (ServerSocket server = listen(0)) {
            connect(server.getLocalPort());
            List<Long> attempts = serve(server, 4_000, refusal(RefusalReason.REFUSAL_REASON_BAD_TOKEN,
                    "handshake token does not match"));
            String log = harness.log();
            assertThat(count(log, "[argus] ERROR")).as(log).isEqualTo(1);
            assertThat(log).contains("[argus] ERROR collector 127.0.0.1:" + server.getLocalPort()
                    + " refused this agent's token (handshake token does not match): set argus.collector.token");
            assertThat(log).doesNotContain("reachable again").doesNotContain("unavailable");
            // 0, 0.5, 1.5, 3.5 s: the backoff doubles as for an outage (it was 0.5 s after every accepted TCP connect)
            assertThat(attempts).hasSizeBetween(3, 4);
            for (int i = 2; i < attempts.size(); i++) {
                assertThat(attempts.get(i) - attempts.get(i - 1)).as("gap before attempt " + i)
                        .isGreaterThan(attempts.get(i - 1) - attempts.get(i - 2));
            }
        }
    }

    @Test
    void aCollectorThatAcceptsEndsTheOutageAndALaterRefusalIsLoggedAgain() throws Exception {
        try (ServerSocket server = listen(0)) {
            connect(server.getLocalPort());
            serve(server, 1_000, refusal(RefusalReason.REFUSAL_REASON_UNAVAILABLE,
                    "storage is failing (No space left on device)"));
            assertThat(count(harness.log(), "storage is failing")).isEqualTo(1);
            assertThat(harness.log()).doesNotContain("ERROR");
            server.setSoTimeout(10_000);
            try (Socket agent = server.accept()) {
                readFrame(new DataInputStream(agent.getInputStream()));
                write(agent, CollectorFrame.newBuilder().setHandshakeReply(HandshakeReply.newBuilder().setAcks(true))
                        .build());
                ConnectionHarness.await("accepted", () -> harness.log().contains("reachable again"));
                write(agent, refusal(RefusalReason.REFUSAL_REASON_BAD_HANDSHAKE, "a second handshake"));
                ConnectionHarness.await("refused again", () -> harness.log().contains("argus.service.name"));
            }
            assertThat(count(harness.log(), "reachable again")).isEqualTo(1);
            assertThat(count(harness.log(), "[argus] ERROR")).isEqualTo(1);
        }
    }
}
