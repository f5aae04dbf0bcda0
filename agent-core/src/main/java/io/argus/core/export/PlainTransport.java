package io.argus.core.export;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/** Frames written to the socket as they are. */
final class PlainTransport implements CollectorTransport {

    private static final int READ_BUFFER_BYTES = 512;

    private final SocketChannel channel;
    private final ByteBuffer discard = ByteBuffer.allocate(READ_BUFFER_BYTES);

    PlainTransport(SocketChannel channel) {
        this.channel = channel;
    }

    @Override
    public boolean handshake() {
        return true;
    }

    @Override
    public int write(ByteBuffer frame) throws IOException {
        return channel.write(frame);
    }

    @Override
    public boolean hasUnsentBytes() {
        return false;
    }

    @Override
    public boolean flush() {
        return true;
    }

    @Override
    public boolean discardInbound() throws IOException {
        int read;
        do {
            discard.clear();
            read = channel.read(discard);
        } while (read > 0);
        return read >= 0;
    }

    @Override
    public void close() {
        CollectorConnection.closeQuietly(channel);
    }
}
