package io.argus.collector.storage;

import io.argus.protocol.Handshake;
import io.argus.protocol.Heartbeat;
import java.util.Objects;

/**
 * Something that happened to one agent session: it connected, sent a heartbeat or disconnected.
 *
 * @param tsMs          when, epoch milliseconds
 * @param source        the session's service and instance
 * @param handshake     the session's handshake
 * @param remoteAddress the agent's address as the collector saw it ({@code host:port})
 * @param heartbeat     the latest heartbeat of the session; {@code null} before the first
 */
public record AgentEvent(long tsMs, Type type, Source source, Handshake handshake, String remoteAddress,
                         Heartbeat heartbeat) {

    /** The kinds of session event, named as in the {@code event} field. */
    public enum Type {
        CONNECTED("connected"),
        HEARTBEAT("heartbeat"),
        DISCONNECTED("disconnected");

        private final String label;

        Type(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    public AgentEvent {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(handshake, "handshake");
        Objects.requireNonNull(remoteAddress, "remoteAddress");
    }
}
