package io.argus.collector.storage;

import java.util.List;
import java.util.Map;

/** The JVM gauges of one instance: the latest value of each, and its recent samples, oldest first. */
public record JvmInstanceMetrics(String instance, Map<String, Double> latest, Map<String, List<JvmPoint>> series) {
}
