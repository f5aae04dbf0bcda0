package io.argus.collector.storage;

import java.util.List;

/**
 * Where the API's service and agent lists come from: the live registry of an ingesting collector, or the
 * stored agent sessions of a query node that has no agents connected.
 */
public interface AgentDirectory {

    /** Services sorted by name, each with its sorted instances and latest contact. */
    List<ServiceSummary> services();

    /** Every known agent, sorted by service then instance. */
    List<AgentInfo> agents();
}
