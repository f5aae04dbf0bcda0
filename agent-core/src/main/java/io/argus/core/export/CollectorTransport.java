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

    /** Reads and drops what the collector sent (it never answers); false at the end of the stream. */
    boolean discardInbound() throws IOException;

    /** Closes the socket (after a TLS close_notify, if the socket takes it at once). */
    void close();
}
