package io.argus.collector;

import java.time.Duration;
import java.util.Objects;

/**
 * What one client may hold of an ingest collector before it has proven to be an agent, and how long its frames may
 * take: bounds that keep unauthenticated or broken clients from exhausting memory, connections or time. Each has a
 * command-line flag (see {@code docs/collector.md}, "Limits and timeouts").
 *
 * @param maxConnections           open agent connections in all; more are closed at once ({@code --max-connections})
 * @param maxConnectionsPerAddress open agent connections from one remote address
 *                                 ({@code --max-connections-per-address})
 * @param handshakeTimeout         a connection that has not sent its handshake (and finished TLS) by then is closed
 *                                 ({@code --handshake-timeout})
 * @param maxHandshakeBytes        largest frame before the handshake is accepted ({@code --max-handshake-bytes})
 * @param frameTimeout             a frame must arrive complete within this time of its first byte, while the collector
 *                                 reads ({@code --frame-timeout})
 * @param maxBufferedBytes         frame bytes buffered across all connections; a connection whose next frame does not
 *                                 fit stops being read until it does ({@code --max-buffered-bytes})
 * @param maxFutureSkew            spans and metric batches stamped further ahead of the collector's clock are dropped
 *                                 and counted ({@code --max-future-skew})
 */
public record IngestLimits(int maxConnections, int maxConnectionsPerAddress, Duration handshakeTimeout,
                           int maxHandshakeBytes, Duration frameTimeout, long maxBufferedBytes,
                           Duration maxFutureSkew) {

    public static final int DEFAULT_MAX_CONNECTIONS = 1024;
    public static final int DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 128;
    public static final Duration DEFAULT_HANDSHAKE_TIMEOUT = Duration.ofSeconds(10);
    public static final int DEFAULT_MAX_HANDSHAKE_BYTES = 16 * 1024;
    public static final Duration DEFAULT_FRAME_TIMEOUT = Duration.ofSeconds(60);
    public static final long DEFAULT_MAX_BUFFERED_BYTES = 64L * 1024 * 1024;
    public static final Duration DEFAULT_MAX_FUTURE_SKEW = Duration.ofHours(1);

    public static final IngestLimits DEFAULTS = new IngestLimits(DEFAULT_MAX_CONNECTIONS,
            DEFAULT_MAX_CONNECTIONS_PER_ADDRESS, DEFAULT_HANDSHAKE_TIMEOUT, DEFAULT_MAX_HANDSHAKE_BYTES,
            DEFAULT_FRAME_TIMEOUT, DEFAULT_MAX_BUFFERED_BYTES, DEFAULT_MAX_FUTURE_SKEW);

    public IngestLimits {
        Objects.requireNonNull(handshakeTimeout, "handshakeTimeout");
        Objects.requireNonNull(frameTimeout, "frameTimeout");
        Objects.requireNonNull(maxFutureSkew, "maxFutureSkew");
        if (maxConnections < 1 || maxConnectionsPerAddress < 1) {
            throw new IllegalArgumentException("connection limits must be positive, got " + maxConnections + " and "
                    + maxConnectionsPerAddress);
        }
        positive("handshakeTimeout", handshakeTimeout);
        positive("frameTimeout", frameTimeout);
        positive("maxFutureSkew", maxFutureSkew);
        if (maxHandshakeBytes < 64) {
            throw new IllegalArgumentException("maxHandshakeBytes must be at least 64, got " + maxHandshakeBytes);
        }
        if (maxBufferedBytes < 1024 * 1024) {
            throw new IllegalArgumentException("maxBufferedBytes must be at least 1 MiB, got " + maxBufferedBytes);
        }
    }

    private static void positive(String name, Duration d) {
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, got " + d);
        }
    }

    public IngestLimits withMaxConnections(int total, int perAddress) {
        return new IngestLimits(total, perAddress, handshakeTimeout, maxHandshakeBytes, frameTimeout, maxBufferedBytes,
                maxFutureSkew);
    }

    public IngestLimits withHandshake(Duration timeout, int maxBytes) {
        return new IngestLimits(maxConnections, maxConnectionsPerAddress, timeout, maxBytes, frameTimeout,
                maxBufferedBytes, maxFutureSkew);
    }

    public IngestLimits withFrameTimeout(Duration timeout) {
        return new IngestLimits(maxConnections, maxConnectionsPerAddress, handshakeTimeout, maxHandshakeBytes, timeout,
                maxBufferedBytes, maxFutureSkew);
    }

    public IngestLimits withMaxBufferedBytes(long bytes) {
        return new IngestLimits(maxConnections, maxConnectionsPerAddress, handshakeTimeout, maxHandshakeBytes,
                frameTimeout, bytes, maxFutureSkew);
    }

    public IngestLimits withMaxFutureSkew(Duration skew) {
        return new IngestLimits(maxConnections, maxConnectionsPerAddress, handshakeTimeout, maxHandshakeBytes,
                frameTimeout, maxBufferedBytes, skew);
    }
}
