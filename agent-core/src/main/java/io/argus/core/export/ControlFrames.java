package io.argus.core.export;

import io.argus.core.AgentCounters;
import io.argus.core.config.AgentSettings;
import io.argus.core.plugin.GaugeSource;
import io.argus.core.metrics.CallStats;
import io.argus.core.metrics.LatencyBuckets;

import java.util.List;

import static io.argus.core.export.WireFields.*;

/** The infrequent frames: handshake, metrics and heartbeat. */
final class ControlFrames {

    private ControlFrames() {
    }

    /** Asks for acknowledgements: an older collector ignores the field and never writes back. */
    static byte[] handshake(AgentSettings settings, String agentVersion, long startTimeMillis) {
        return handshake(settings, agentVersion, startTimeMillis, "", 0);
    }

    /**
     * @param startupMode       how the agent started ({@code argus.startup.mode})
     * @param observingSinceMs  since when its probes are in, epoch millis
     */
    static byte[] handshake(AgentSettings settings, String agentVersion, long startTimeMillis, String startupMode,
                            long observingSinceMs) {
        ProtoWriter out = new ProtoWriter(256);
        out.beginFrame();
        int handshake = out.beginMessage(FRAME_HANDSHAKE);
        out.writeInt32(HANDSHAKE_PROTOCOL_VERSION, PROTOCOL_VERSION);
        out.writeString(HANDSHAKE_SERVICE, settings.serviceName);
        out.writeString(HANDSHAKE_INSTANCE, settings.instance);
        out.writeString(HANDSHAKE_AGENT_VERSION, agentVersion);
        out.writeString(HANDSHAKE_TOKEN, settings.token);
        out.writeString(HANDSHAKE_HOST, settings.host);
        out.writeUInt64(HANDSHAKE_PID, AgentSettings.pid());
        out.writeUInt64(HANDSHAKE_START_TIME_MS, startTimeMillis);
        out.writeString(HANDSHAKE_RUNTIME_VERSION, System.getProperty("java.version", ""));
        out.writeBool(HANDSHAKE_ACKS, true);
        out.writeString(HANDSHAKE_STARTUP_MODE, startupMode);
        out.writeUInt64(HANDSHAKE_OBSERVING_SINCE_MS, observingSinceMs);
        out.endMessage(handshake);
        return out.endFrame();
    }

    /** Collects gauges straight into the frame being written. */
    interface GaugeWriter {
        void writeGauges(GaugeSource.GaugeSink sink);
    }

    static byte[] metrics(long timestampMillis, long intervalMillis, List<CallStats.Snapshot> server,
                          List<CallStats.Snapshot> client, GaugeWriter gauges) {
        return metrics(timestampMillis, intervalMillis, server, client,
                java.util.Collections.<CallStats.Snapshot>emptyList(), gauges);
    }

    /** {@code db}: database cells, method = statement type, target = database, status 0. */
    static byte[] metrics(long timestampMillis, long intervalMillis, List<CallStats.Snapshot> server,
                          List<CallStats.Snapshot> client, List<CallStats.Snapshot> db, GaugeWriter gauges) {
        final ProtoWriter out = new ProtoWriter(4096);
        out.beginFrame();
        int batch = out.beginMessage(FRAME_METRICS);
        out.writeUInt64(METRICS_TIMESTAMP_MS, timestampMillis);
        out.writeUInt64(METRICS_INTERVAL_MS, intervalMillis);
        long[] bounds = new long[LatencyBuckets.boundCount()];
        for (int i = 0; i < bounds.length; i++) {
            bounds[i] = LatencyBuckets.bound(i);
        }
        out.writePackedInt64(METRICS_BUCKET_BOUNDS_NANOS, bounds, bounds.length);
        writeCalls(out, CALL_KIND_SERVER, server);
        writeCalls(out, CALL_KIND_CLIENT, client);
        writeCalls(out, CALL_KIND_DB, db);
        gauges.writeGauges(new GaugeSource.GaugeSink() {
            @Override
            public void gauge(String name, double value) {
                if (Double.isNaN(value) || Double.isInfinite(value)) {
                    return;
                }
                int gauge = out.beginMessage(METRICS_JVM);
                out.writeString(GAUGE_NAME, name);
                out.writeDouble(GAUGE_VALUE, value);
                out.endMessage(gauge);
            }
        });
        out.endMessage(batch);
        return out.endFrame();
    }

    private static void writeCalls(ProtoWriter out, int kind, List<CallStats.Snapshot> cells) {
        for (CallStats.Snapshot s : cells) {
            int metric = out.beginMessage(METRICS_CALLS);
            out.writeInt32(CALL_KIND, kind);
            out.writeString(CALL_METHOD, s.method);
            out.writeString(CALL_TARGET, s.target);
            out.writeInt32(CALL_STATUS, s.status);
            out.writeUInt64(CALL_COUNT, s.count);
            out.writeUInt64(CALL_ERRORS, s.errors);
            out.writeUInt64(CALL_SUM_NANOS, s.sumNanos);
            out.writeUInt64(CALL_MIN_NANOS, s.minNanos);
            out.writeUInt64(CALL_MAX_NANOS, s.maxNanos);
            int last = s.bucketCounts.length - 1;
            while (last >= 0 && s.bucketCounts[last] == 0) {
                last--;
            }
            out.writePackedInt64(CALL_BUCKET_COUNTS, s.bucketCounts, last + 1);
            out.endMessage(metric);
        }
    }

    static byte[] heartbeat(AgentCounters counters) {
        ProtoWriter out = new ProtoWriter(64);
        out.beginFrame();
        int heartbeat = out.beginMessage(FRAME_HEARTBEAT);
        out.writeUInt64(HEARTBEAT_TIMESTAMP_MS, System.currentTimeMillis());
        out.writeUInt64(HEARTBEAT_DROPPED_SPANS, counters.droppedSpans.get());
        out.writeUInt64(HEARTBEAT_DROPPED_METRICS, counters.droppedMetricBatches.get());
        out.writeUInt64(HEARTBEAT_ADVICE_ERRORS, counters.adviceErrors.get());
        out.writeUInt64(HEARTBEAT_SENT_SPANS, counters.sentSpans.get());
        out.endMessage(heartbeat);
        return out.endFrame();
    }
}
