package io.argus.collector.testing;

import io.argus.protocol.CollectorFrame;
import io.argus.protocol.Frame;
import io.argus.protocol.Handshake;
import io.argus.protocol.Heartbeat;
import io.argus.protocol.MetricBatch;
import io.argus.protocol.SpanBatch;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/** A minimal agent for tests: a real TCP socket writing length-prefixed frames. */
public final class TestAgent implements AutoCloseable {
    private final Socket socket;
    private final DataOutputStream out;

    public TestAgent(int port) throws IOException {
        this(new Socket(), port);
    }

    private TestAgent(Socket socket, int port) throws IOException {
        this.socket = socket;
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        socket.setTcpNoDelay(true);
        out = new DataOutputStream(socket.getOutputStream());
    }

    /**
     * An agent on a TLS connection: the handshake (with {@code tls}'s trust and host name verification against
     * 127.0.0.1) completes before this returns.
     */
    public static TestAgent overTls(int port, SSLContext tls) throws IOException {
        SSLSocket socket = (SSLSocket) tls.getSocketFactory().createSocket();
        SSLParameters params = socket.getSSLParameters();
        params.setEndpointIdentificationAlgorithm("HTTPS");
        socket.setSSLParameters(params);
        TestAgent agent = new TestAgent(socket, port);
        socket.setSoTimeout(10_000);
        socket.startHandshake();
        socket.setSoTimeout(0);
        return agent;
    }

    public static Handshake handshake(String service, String instance) {
        return Handshake.newBuilder()
                .setProtocolVersion(1)
                .setService(service)
                .setInstance(instance)
                .setAgentVersion("0.1.0-test")
                .setHost("test-host")
                .setPid(4242)
                .setStartTimeMs(1_700_000_000_000L)
                .setRuntimeVersion("17.0.15")
                .setStartupMode("parallel")
                .setObservingSinceMs(1_700_000_000_100L)
                .build();
    }

    public TestAgent hello(String service, String instance) throws IOException {
        return send(Frame.newBuilder().setHandshake(handshake(service, instance)).build());
    }

    /** A handshake that asks for acknowledgements; the collector's answer is left for {@link #read}. */
    public TestAgent helloWithAcks(String service, String instance) throws IOException {
        return send(Frame.newBuilder().setHandshake(handshake(service, instance).toBuilder().setAcks(true)).build());
    }

    /** The next frame the collector wrote back; {@code null} when none comes within the timeout. */
    public CollectorFrame read(long timeoutMillis) throws IOException {
        socket.setSoTimeout((int) timeoutMillis);
        DataInputStream in = new DataInputStream(socket.getInputStream());
        try {
            byte[] body = new byte[in.readInt()];
            in.readFully(body);
            return CollectorFrame.parseFrom(body);
        } catch (SocketTimeoutException e) {
            return null;
        }
    }

    /** Reads acknowledgements until one covers frame {@code sequence}; fails after the timeout. */
    public void awaitAck(long sequence, long timeoutMillis) throws IOException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        long acked = 0;
        while (acked < sequence) {
            long left = deadline - System.currentTimeMillis();
            CollectorFrame f = left > 0 ? read(left) : null;
            if (f == null) {
                throw new AssertionError("frame " + sequence + " not acknowledged within " + timeoutMillis
                        + " ms (acknowledged: " + acked + ")");
            }
            if (f.hasAck()) {
                acked = f.getAck().getSequence();
            }
        }
    }

    public TestAgent send(Frame frame) throws IOException {
        byte[] body = frame.toByteArray();
        out.writeInt(body.length);
        out.write(body);
        out.flush();
        return this;
    }

    public TestAgent spans(SpanBatch batch) throws IOException {
        return send(Frame.newBuilder().setSpans(batch).build());
    }

    public TestAgent metrics(MetricBatch batch) throws IOException {
        return send(Frame.newBuilder().setMetrics(batch).build());
    }

    public TestAgent heartbeat(Heartbeat hb) throws IOException {
        return send(Frame.newBuilder().setHeartbeat(hb).build());
    }

    /** Writes raw bytes, framing or not. */
    public TestAgent raw(byte[] bytes) throws IOException {
        OutputStream o = socket.getOutputStream();
        o.write(bytes);
        o.flush();
        return this;
    }

    public static byte[] lengthPrefix(int length) {
        return ByteBuffer.allocate(4).putInt(length).array();
    }

    public int localPort() {
        return socket.getLocalPort();
    }

    /** Half-closes the connection: the collector sees end of stream after what was written. */
    public void shutdownOutput() throws IOException {
        socket.shutdownOutput();
    }

    /**
     * True when the server closed the connection within the timeout: the read sees end of stream or a
     * reset. The collector writes nothing to an agent that did not ask for acknowledgements, so any read result
     * means closed.
     */
    public boolean closedByServer(long timeoutMillis) throws IOException {
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
