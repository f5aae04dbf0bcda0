package io.argus.collector.storage;

import java.util.List;
import java.util.Map;

/** Every gauge of one instance, one point per step (the last sample in it), oldest first. */
public record JvmInstanceSeries(String instance, Map<String, List<JvmPoint>> series) {
}
