package io.argus.core.export;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The byte stream over one connected, non-blocking socket to the collector: the socket itself, or TLS over it.
 * Driven by the exporter thread through {@link CollectorConnection}; no method blocks on the network.
 */
interface CollectorTransport {

    /** Advances what must happen before the first frame (the TLS handshake); true once frames can be written. */
    boolean handshake() throws IOException;

    /** Takes as much of {@code frame} as can go out now; returns the bytes taken. */
    int write(ByteBuffer frame) throws IOException;

    /** Bytes taken by {@link #write} but not yet handed to the socket (TLS records waiting for room). */
    boolean hasUnsentBytes();

    /** Hands unsent bytes to the socket; true when none are left. */
    boolean flush() throws IOException;

    /**
     * Reads what the collector wrote (replies and acknowledgements) into {@code into}, as much as it holds; returns
     * the bytes read, or -1 at the end of the stream once nothing is left.
     */
    int read(ByteBuffer into) throws IOException;

    /** Closes the socket (after a TLS close_notify, if the socket takes it at once). */
    void close();
}
