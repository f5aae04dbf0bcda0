package io.argus.collector.ingest;

import io.argus.collector.storage.Source;
import io.argus.protocol.Handshake;

/** One agent connection after a valid handshake. */
public record AgentSession(Source source, Handshake handshake, String remoteAddress, long connectedAtMs) {
}
