package io.argus.collector.record;

/** The four record streams, one Kafka topic each; the topic name is a configurable prefix plus {@link #suffix()}. */
public enum RecordTopic {
    /** One record per span, keyed by trace id so that a trace lands in one partition. */
    SPANS("spans"),
    /** One record per call metric cell (HTTP server, HTTP client, database) of a metric batch, keyed by service. */
    CALLS("calls"),
    /** One record per JVM gauge sample, keyed by service and instance. */
    JVM("jvm"),
    /** One record per agent session event (connected, heartbeat, disconnected), keyed by service and instance. */
    AGENTS("agents");

    /** The prefix of topic names unless configured otherwise. */
    public static final String DEFAULT_PREFIX = "argus-";

    private final String suffix;

    RecordTopic(String suffix) {
        this.suffix = suffix;
    }

    public String suffix() {
        return suffix;
    }

    /** The topic name under {@code prefix}, e.g. {@code argus-spans}. */
    public String topic(String prefix) {
        return prefix + suffix;
    }
}
