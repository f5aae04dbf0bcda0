package io.argus.collector.storage;

import java.util.List;

/** The JVM gauges of every instance of one service. */
public record JvmMetrics(String service, List<JvmInstanceMetrics> instances) {
}
