package io.argus.collector.otlp;

import io.argus.collector.storage.Source;
import io.argus.protocol.Handshake;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import java.util.List;

/**
 * Who sent an OTLP resource: service from {@code service.name} ({@code unknown_service} without one, as the SDKs
 * name it), instance from {@code service.instance.id}, else {@code host.name} (with {@code :pid} when
 * {@code process.pid} is there), else the client address. The details go into a handshake-like record so that
 * OTLP senders show in the agents list with agent version {@value #AGENT_VERSION}.
 */
final class OtlpSources {
    static final String AGENT_VERSION = "otlp";
    static final String UNKNOWN_SERVICE = "unknown_service";
    static final int MAX_NAME_CHARS = 256;

    private OtlpSources() {
    }

    /** A resource's source and the details shown for it. */
    record Sender(Source source, Handshake details) {
    }

    static Sender sender(Resource resource, String clientHost) {
        List<KeyValue> attrs = resource.getAttributesList();
        String service = OtlpValues.get(attrs, "service.name");
        String host = OtlpValues.get(attrs, "host.name");
        String pid = OtlpValues.get(attrs, "process.pid");
        String instance = OtlpValues.get(attrs, "service.instance.id");
        if (instance == null && host != null) {
            instance = pid != null ? host + ":" + pid : host;
        }
        if (instance == null) {
            instance = clientHost;
        }
        String runtime = OtlpValues.first(attrs, "process.runtime.version", "telemetry.sdk.language");
        String sdk = OtlpValues.get(attrs, "telemetry.sdk.name");
        String sdkVersion = OtlpValues.get(attrs, "telemetry.sdk.version");
        Handshake.Builder details = Handshake.newBuilder()
                .setService(cut(service == null ? UNKNOWN_SERVICE : service))
                .setInstance(cut(instance))
                .setAgentVersion(sdk == null ? AGENT_VERSION
                        : AGENT_VERSION + " (" + sdk + (sdkVersion == null ? "" : " " + sdkVersion) + ")")
                .setHost(host == null ? "" : cut(host))
                .setRuntimeVersion(runtime == null ? "" : cut(runtime));
        if (pid != null) {
            try {
                details.setPid(Long.parseLong(pid));
            } catch (NumberFormatException ignored) {
                // not a number: leave it out
            }
        }
        return new Sender(new Source(details.getService(), details.getInstance()), details.build());
    }

    private static String cut(String s) {
        String t = s.strip();
        return t.length() > MAX_NAME_CHARS ? t.substring(0, MAX_NAME_CHARS) : t;
    }
}
