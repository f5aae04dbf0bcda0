package io.argus.core.export;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/** Frames written to the socket as they are. */
final class PlainTransport implements CollectorTransport {

    private final SocketChannel channel;

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
    public int read(ByteBuffer into) throws IOException {
        return into.hasRemaining() ? channel.read(into) : 0;
    }

    @Override
    public void close() {
        CollectorConnection.closeQuietly(channel);
    }
}
