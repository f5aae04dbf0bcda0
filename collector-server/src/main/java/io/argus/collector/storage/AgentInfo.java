package io.argus.collector.storage;

/**
 * What the collector knows about one agent instance: its handshake, its latest heartbeat counters
 * and the collector's own view (connection state, spans received).
 */
public record AgentInfo(
        String service,
        String instance,
        String agentVersion,
        String host,
        long pid,
        long startTimeMs,
        String runtimeVersion,
        int protocolVersion,
        String remoteAddress,
        boolean connected,
        long connectedAtMs,
        long lastSeenMs,
        long lastHeartbeatMs,
        long droppedSpans,
        long droppedMetrics,
        long adviceErrors,
        long sentSpans,
        long spansReceived) {
}
