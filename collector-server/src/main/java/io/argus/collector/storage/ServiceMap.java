package io.argus.collector.storage;

import java.util.List;

/** Who calls whom in a time range: every service with spans in it, and what its client spans reached. */
public record ServiceMap(TimeRange range, List<ServiceMapNode> nodes, List<ServiceMapEdge> edges) {
}
