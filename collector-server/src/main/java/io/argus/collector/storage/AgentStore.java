package io.argus.collector.storage;

import java.util.Collection;
import java.util.List;

/** Persists what is known about agent instances so that it survives a collector restart. */
public interface AgentStore {

    /** Saves (inserts or replaces by service and instance) these agents; may be asynchronous. */
    void saveAgents(Collection<AgentInfo> agents);

    /** Every saved agent. */
    List<AgentInfo> loadAgents();
}
