package io.argus.core.export;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;

/**
 * TLS over the non-blocking socket with the JDK's {@link SSLEngine}: frames are wrapped into TLS records that
 * wait in {@link #netOut} while the socket's send buffer is full, inbound records are unwrapped into {@link #appIn}
 * for {@link #read}. The handshake's delegated tasks (certificate checks) run on the calling exporter thread.
 */
final class TlsTransport implements CollectorTransport {

    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    private final SocketChannel channel;
    private final SSLEngine engine;
    /** Encrypted bytes for the socket, in read mode (flipped). */
    private ByteBuffer netOut;
    /** Encrypted bytes from the socket not unwrapped yet, in write mode. */
    private ByteBuffer netIn;
    /** Decrypted inbound bytes not read yet, in write mode. */
    private ByteBuffer appIn;

    /**
     * @param host the collector's host as configured: the name its certificate must carry when
     *             {@code verifyHostname}, and the SNI name
     */
    TlsTransport(SocketChannel channel, SSLContext context, String host, int port, boolean verifyHostname)
            throws SSLException {
        this.channel = channel;
        this.engine = context.createSSLEngine(host, port);
        engine.setUseClientMode(true);
        if (verifyHostname) {
            SSLParameters parameters = engine.getSSLParameters();
            parameters.setEndpointIdentificationAlgorithm("HTTPS");
            engine.setSSLParameters(parameters);
        }
        int packet = engine.getSession().getPacketBufferSize();
        netOut = ByteBuffer.allocate(packet);
        netOut.flip();
        netIn = ByteBuffer.allocate(packet);
        appIn = ByteBuffer.allocate(engine.getSession().getApplicationBufferSize());
        engine.beginHandshake();
    }

    @Override
    public boolean handshake() throws IOException {
        while (true) {
            if (!flush()) {
                return false;
            }
            switch (engine.getHandshakeStatus()) {
                case NEED_TASK:
                    Runnable task;
                    while ((task = engine.getDelegatedTask()) != null) {
                        task.run();
                    }
                    break;
                case NEED_WRAP:
                    wrap(EMPTY);
                    break;
                case NEED_UNWRAP:
                    if (!unwrap()) {
                        return false; // waiting for the collector's next handshake message
                    }
                    break;
                default: // NOT_HANDSHAKING, FINISHED
                    return true;
            }
        }
    }

    @Override
    public int write(ByteBuffer frame) throws IOException {
        int taken = 0;
        while (frame.hasRemaining() && flush()) {
            taken += wrap(frame);
        }
        flush();
        return taken;
    }

    /** One TLS record of {@code source} into the empty {@link #netOut}; returns the plain bytes it took. */
    private int wrap(ByteBuffer source) throws IOException {
        while (true) {
            netOut.clear();
            SSLEngineResult result;
            try {
                result = engine.wrap(source, netOut);
            } finally {
                netOut.flip();
            }
            switch (result.getStatus()) {
                case OK:
                    return result.bytesConsumed();
                case BUFFER_OVERFLOW:
                    netOut = ByteBuffer.allocate(Math.max(netOut.capacity() * 2,
                            engine.getSession().getPacketBufferSize()));
                    netOut.flip();
                    break;
                default: // CLOSED; BUFFER_UNDERFLOW does not happen when wrapping
                    throw new SSLException("the TLS session is closed (" + result.getStatus() + ")");
            }
        }
    }

    /**
     * One unwrap, reading from the socket when no full record is buffered. False when the socket had nothing
     * more to read; an {@link EOFException} at the end of the stream.
     */
    private boolean unwrap() throws IOException {
        while (true) {
            netIn.flip();
            SSLEngineResult result;
            try {
                result = engine.unwrap(netIn, appIn);
            } finally {
                netIn.compact();
            }
            switch (result.getStatus()) {
                case OK:
                    return true;
                case BUFFER_OVERFLOW:
                    ByteBuffer grown = ByteBuffer.allocate(Math.max(appIn.capacity() * 2,
                            engine.getSession().getApplicationBufferSize()));
                    appIn.flip();
                    appIn = grown.put(appIn);
                    break;
                case BUFFER_UNDERFLOW:
                    if (!netIn.hasRemaining()) {
                        ByteBuffer larger = ByteBuffer.allocate(Math.max(netIn.capacity() * 2,
                                engine.getSession().getPacketBufferSize()));
                        netIn.flip();
                        larger.put(netIn);
                        netIn = larger;
                    }
                    int read = channel.read(netIn);
                    if (read < 0) {
                        throw new EOFException("the collector closed the connection"
                                + (engine.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NOT_HANDSHAKING
                                ? "" : " during the TLS handshake"));
                    }
                    if (read == 0) {
                        return false;
                    }
                    break;
                default: // CLOSED: the collector sent close_notify
                    throw new EOFException("the collector closed the TLS session");
            }
        }
    }

    @Override
    public boolean hasUnsentBytes() {
        return netOut.hasRemaining();
    }

    @Override
    public boolean flush() throws IOException {
        if (netOut.hasRemaining()) {
            channel.write(netOut);
        }
        return !netOut.hasRemaining();
    }

    @Override
    public int read(ByteBuffer into) throws IOException {
        int read = 0;
        while (true) {
            read += take(into);
            if (!into.hasRemaining()) {
                return read;
            }
            try {
                if (!unwrap()) {
                    return read;
                }
            } catch (EOFException closed) {
                read += take(into);
                return read > 0 ? read : -1; // the end comes once what the collector wrote before it is read
            }
            SSLEngineResult.HandshakeStatus status = engine.getHandshakeStatus();
            if (status == SSLEngineResult.HandshakeStatus.NEED_TASK
                    || status == SSLEngineResult.HandshakeStatus.NEED_WRAP) {
                handshake(); // after a session ticket or a key update
            }
        }
    }

    /** Moves decrypted bytes into {@code into}, as many as it holds. */
    private int take(ByteBuffer into) {
        appIn.flip();
        int n = Math.min(appIn.remaining(), into.remaining());
        int limit = appIn.limit();
        appIn.limit(appIn.position() + n);
        into.put(appIn);
        appIn.limit(limit);
        appIn.compact();
        return n;
    }

    @Override
    public void close() {
        try {
            engine.closeOutbound();
            if (flush()) {
                wrap(EMPTY);
                flush();
            }
        } catch (IOException ignored) {
            // closing anyway
        }
        CollectorConnection.closeQuietly(channel);
    }
}
