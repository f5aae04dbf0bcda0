package io.argus.collector.storage;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/** The service and agent lists read from an {@link AgentStore} on every call (a query node's view). */
public final class StoredAgentDirectory implements AgentDirectory {
    private final AgentStore store;

    public StoredAgentDirectory(AgentStore store) {
        this.store = store;
    }

    @Override
    public List<ServiceSummary> services() {
        return services(store.loadAgents());
    }

    @Override
    public List<AgentInfo> agents() {
        List<AgentInfo> agents = new ArrayList<>(store.loadAgents());
        agents.sort(Comparator.comparing(AgentInfo::service).thenComparing(AgentInfo::instance));
        return agents;
    }

    /** Services sorted by name, with their sorted instances and the latest contact of any of them. */
    static List<ServiceSummary> services(List<AgentInfo> agents) {
        Map<String, TreeSet<String>> instances = new TreeMap<>();
        Map<String, Long> lastSeen = new TreeMap<>();
        for (AgentInfo a : agents) {
            instances.computeIfAbsent(a.service(), k -> new TreeSet<>()).add(a.instance());
            lastSeen.merge(a.service(), a.lastSeenMs(), Math::max);
        }
        List<ServiceSummary> out = new ArrayList<>(instances.size());
        instances.forEach((service, names) ->
                out.add(new ServiceSummary(service, List.copyOf(names), lastSeen.get(service))));
        return out;
    }
}
