package io.argus.collector.storage;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Who calls whom in a time range: every service with spans in it, what its client spans reached, and the topics
 * its producer spans sent to, with an edge from each topic to the services whose consumer spans processed it.
 */
public record ServiceMap(TimeRange range, List<ServiceMapNode> nodes, List<ServiceMapEdge> edges) {

    /**
     * The map of {@code edges} (in the order given) and their targets, plus a service node for every service in
     * {@code services} and every edge source (a service, or a topic for its consumers' edges); nodes services first,
     * then topics, databases and external hosts, each by id.
     *
     * @param targetTypes the {@link ServiceMapNode} type of each edge target id
     */
    public static ServiceMap of(TimeRange range, List<ServiceMapEdge> edges, Map<String, String> targetTypes,
                                Collection<String> services) {
        Map<String, ServiceMapNode> nodes = new LinkedHashMap<>();
        for (ServiceMapEdge edge : edges) {
            nodes.putIfAbsent(edge.target(), ServiceMapNode.of(edge.target(), targetTypes.get(edge.target())));
        }
        for (String service : services) {
            nodes.putIfAbsent(service, ServiceMapNode.of(service, ServiceMapNode.SERVICE));
        }
        for (ServiceMapEdge edge : edges) {
            nodes.putIfAbsent(edge.source(), ServiceMapNode.of(edge.source(), ServiceMapNode.sourceType(edge.source())));
        }
        List<ServiceMapNode> sorted = new ArrayList<>(nodes.values());
        sorted.sort(Comparator.comparingInt(ServiceMapNode::typeOrder).thenComparing(ServiceMapNode::id));
        return new ServiceMap(range, sorted, edges);
    }
}
