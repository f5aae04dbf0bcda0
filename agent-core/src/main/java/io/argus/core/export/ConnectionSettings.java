package io.argus.core.export;

import io.argus.core.AgentCounters;
import io.argus.core.config.CollectorAddress;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import javax.net.ssl.SSLContext;

/**
 * What a {@link CollectorConnection} is made with: where it connects, what it says first, and its bounds. Built with
 * {@link #to}; what is not set keeps the agent's default bound, on a one-way plain connection (no acknowledgements,
 * no TLS).
 */
final class ConnectionSettings {
    /** Tried in order, one after the other on each failure; never empty. */
    final List<CollectorAddress> addresses;
    final byte[] handshake;
    /** Whether {@link #handshake} asks for acknowledgements. */
    final boolean acksWanted;
    /** Where span frames count as sent (accepted, or acknowledged) or, at exit, dropped. */
    final AgentCounters counters;
    /** Bound of the bytes waiting to be written; beyond it {@code send} refuses. */
    final int maxPendingBytes;
    /** Bound of the span frames kept until acknowledged. */
    final long maxUnackedBytes;
    /** How long a collector may take to answer the handshake before it is taken for one without acks. */
    final long replyTimeoutMillis;
    final long maxBackoffMillis;
    /** TLS to every collector in the list, or null for plain TCP. */
    final SSLContext tls;
    final boolean verifyHostname;

    private ConnectionSettings(Builder b) {
        this.addresses = Collections.unmodifiableList(new ArrayList<>(b.addresses));
        this.handshake = b.handshake;
        this.acksWanted = b.acksWanted;
        this.counters = b.counters;
        this.maxPendingBytes = b.maxPendingBytes;
        this.maxUnackedBytes = b.maxUnackedBytes < 0 ? b.maxPendingBytes : b.maxUnackedBytes;
        this.replyTimeoutMillis = b.replyTimeoutMillis;
        this.maxBackoffMillis = b.maxBackoffMillis;
        this.tls = b.tls;
        this.verifyHostname = b.verifyHostname;
    }

    /**
     * Settings for a connection to {@code addresses} that opens with {@code handshake}.
     *
     * @throws IllegalArgumentException when {@code addresses} is empty
     */
    static Builder to(List<CollectorAddress> addresses, byte[] handshake) {
        if (addresses.isEmpty()) {
            throw new IllegalArgumentException("no collector address");
        }
        return new Builder(addresses, handshake);
    }

    static final class Builder {
        private final List<CollectorAddress> addresses;
        private final byte[] handshake;
        private boolean acksWanted;
        private AgentCounters counters = new AgentCounters();
        private int maxPendingBytes = 4 << 20;
        /** Negative: as {@link #maxPendingBytes}. */
        private long maxUnackedBytes = -1;
        private long replyTimeoutMillis = CollectorConnection.REPLY_TIMEOUT_MILLIS;
        private long maxBackoffMillis = 30_000;
        private SSLContext tls;
        private boolean verifyHostname;

        private Builder(List<CollectorAddress> addresses, byte[] handshake) {
            this.addresses = addresses;
            this.handshake = handshake;
        }

        /** The handshake asks for acknowledgements; span frames count in {@code counters}. */
        Builder acknowledged(AgentCounters counters, long maxUnackedBytes, long replyTimeoutMillis) {
            this.acksWanted = true;
            this.counters = counters;
            this.maxUnackedBytes = maxUnackedBytes;
            this.replyTimeoutMillis = replyTimeoutMillis;
            return this;
        }

        Builder maxPendingBytes(int bytes) {
            this.maxPendingBytes = bytes;
            return this;
        }

        Builder maxBackoffMillis(long millis) {
            this.maxBackoffMillis = millis;
            return this;
        }

        /** @param context TLS to every collector in the list, or null for plain TCP */
        Builder tls(SSLContext context, boolean verifyHostname) {
            this.tls = context;
            this.verifyHostname = verifyHostname;
            return this;
        }

        ConnectionSettings build() {
            return new ConnectionSettings(this);
        }
    }
}
