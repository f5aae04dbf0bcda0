package io.argus.collector.storage;

/**
 * What the collector knows about one agent instance: its handshake, its latest heartbeat counters
 * and the collector's own view (connection state, spans received).
 *
 * @param startupMode      how the agent started ({@code parallel}, {@code premain}, {@code deferred}); empty
 *                         from older agents and OTLP sources
 * @param observingSinceMs since when (epoch millis) the agent's probes are in: every request the application
 *                         served from then on is observed; 0 when unknown
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
        long spansReceived,
        String startupMode,
        long observingSinceMs) {
}
