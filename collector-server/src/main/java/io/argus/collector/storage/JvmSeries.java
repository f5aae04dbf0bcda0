package io.argus.collector.storage;

import java.util.List;

/** JVM gauge time series of the instances of one service. */
public record JvmSeries(String service, long stepMs, List<JvmInstanceSeries> instances) {
}
