package io.argus.collector;

import io.argus.protocol.Frame;
import io.argus.protocol.Handshake;
import io.argus.protocol.Heartbeat;
import io.argus.protocol.MetricBatch;
import io.argus.protocol.SpanBatch;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;

/** A minimal agent for tests: a real TCP socket writing length-prefixed frames. */
final class TestAgent implements AutoCloseable {
    final Socket socket;
    private final DataOutputStream out;

    TestAgent(int port) throws IOException {
        socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        socket.setTcpNoDelay(true);
        out = new DataOutputStream(socket.getOutputStream());
    }

    static Handshake handshake(String service, String instance) {
        return Handshake.newBuilder()
                .setProtocolVersion(1)
                .setService(service)
                .setInstance(instance)
                .setAgentVersion("0.1.0-test")
                .setHost("test-host")
                .setPid(4242)
                .setStartTimeMs(1_700_000_000_000L)
                .setRuntimeVersion("17.0.15")
                .build();
    }

    TestAgent hello(String service, String instance) throws IOException {
        return send(Frame.newBuilder().setHandshake(handshake(service, instance)).build());
    }

    TestAgent send(Frame frame) throws IOException {
        byte[] body = frame.toByteArray();
        out.writeInt(body.length);
        out.write(body);
        out.flush();
        return this;
    }

    TestAgent spans(SpanBatch batch) throws IOException {
        return send(Frame.newBuilder().setSpans(batch).build());
    }

    TestAgent metrics(MetricBatch batch) throws IOException {
        return send(Frame.newBuilder().setMetrics(batch).build());
    }

    TestAgent heartbeat(Heartbeat hb) throws IOException {
        return send(Frame.newBuilder().setHeartbeat(hb).build());
    }

    /** Writes raw bytes, framing or not. */
    TestAgent raw(byte[] bytes) throws IOException {
        OutputStream o = socket.getOutputStream();
        o.write(bytes);
        o.flush();
        return this;
    }

    static byte[] lengthPrefix(int length) {
        return ByteBuffer.allocate(4).putInt(length).array();
    }

    int localPort() {
        return socket.getLocalPort();
    }

    /**
     * True when the server closed the connection within the timeout: the read sees end of stream or a
     * reset. The collector never writes to agents, so any read result means closed.
     */
    boolean closedByServer(long timeoutMillis) throws IOException {
        socket.setSoTimeout((int) timeoutMillis);
        InputStream in = socket.getInputStream();
        try {
            return in.read() == -1;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (SocketException e) {
            return true; // connection reset
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
