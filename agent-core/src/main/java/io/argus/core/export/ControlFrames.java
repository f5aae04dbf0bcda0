package io.argus.core.export;

import io.argus.core.AgentCounters;
import io.argus.core.config.AgentSettings;
import io.argus.core.metrics.HttpStats;
import io.argus.core.metrics.LatencyBuckets;
import io.argus.protocol.Frame;
import io.argus.protocol.Gauge;
import io.argus.protocol.Handshake;
import io.argus.protocol.Heartbeat;
import io.argus.protocol.HttpMetric;
import io.argus.protocol.HttpMetricKind;
import io.argus.protocol.MetricBatch;

import java.util.List;

/** The infrequent frames (handshake, metrics, heartbeat), built with the generated classes. */
final class ControlFrames {

    static final int PROTOCOL_VERSION = 1;

    private ControlFrames() {
    }

    static byte[] handshake(AgentSettings settings, String agentVersion, long startTimeMillis) {
        Handshake handshake = Handshake.newBuilder()
                .setProtocolVersion(PROTOCOL_VERSION)
                .setService(settings.serviceName)
                .setInstance(settings.instance)
                .setAgentVersion(agentVersion)
                .setToken(settings.token)
                .setHost(hostOf(settings.instance))
                .setPid(AgentSettings.pid())
                .setStartTimeMs(startTimeMillis)
                .setRuntimeVersion(System.getProperty("java.version", ""))
                .build();
        return frame(Frame.newBuilder().setHandshake(handshake).build());
    }

    static byte[] metrics(long timestampMillis, long intervalMillis, List<HttpStats.Snapshot> server,
                          List<HttpStats.Snapshot> client, List<Gauge> gauges) {
        MetricBatch.Builder batch = MetricBatch.newBuilder().setTimestampMs(timestampMillis).setIntervalMs(intervalMillis);
        for (int i = 0; i < LatencyBuckets.boundCount(); i++) {
            batch.addBucketBoundsNanos(LatencyBuckets.bound(i));
        }
        addHttp(batch, HttpMetricKind.HTTP_METRIC_KIND_SERVER, server);
        addHttp(batch, HttpMetricKind.HTTP_METRIC_KIND_CLIENT, client);
        batch.addAllJvm(gauges);
        return frame(Frame.newBuilder().setMetrics(batch).build());
    }

    private static void addHttp(MetricBatch.Builder batch, HttpMetricKind kind, List<HttpStats.Snapshot> cells) {
        for (HttpStats.Snapshot s : cells) {
            HttpMetric.Builder metric = HttpMetric.newBuilder().setKind(kind).setMethod(s.method).setTarget(s.target)
                    .setStatus(s.status).setCount(s.count).setErrors(s.errors).setSumNanos(s.sumNanos)
                    .setMinNanos(s.minNanos).setMaxNanos(s.maxNanos);
            int last = s.bucketCounts.length - 1;
            while (last >= 0 && s.bucketCounts[last] == 0) {
                last--;
            }
            for (int i = 0; i <= last; i++) {
                metric.addBucketCounts(s.bucketCounts[i]);
            }
            batch.addHttp(metric);
        }
    }

    static byte[] heartbeat(AgentCounters counters) {
        Heartbeat heartbeat = Heartbeat.newBuilder()
                .setTimestampMs(System.currentTimeMillis())
                .setDroppedSpans(counters.droppedSpans.get())
                .setDroppedMetrics(counters.droppedMetricBatches.get())
                .setAdviceErrors(counters.adviceErrors.get())
                .setSentSpans(counters.sentSpans.get())
                .build();
        return frame(Frame.newBuilder().setHeartbeat(heartbeat).build());
    }

    private static byte[] frame(Frame frame) {
        int size = frame.getSerializedSize();
        byte[] out = new byte[4 + size];
        SpanEncoder.writeLength(out, size);
        try {
            frame.writeTo(com.google.protobuf.CodedOutputStream.newInstance(out, 4, size));
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot serialize frame", e);
        }
        return out;
    }

    private static String hostOf(String instance) {
        int at = instance.indexOf('@');
        int colon = instance.lastIndexOf(':');
        return at >= 0 && colon > at ? instance.substring(at + 1, colon) : "";
    }
}
