package io.argus.collector;

import io.argus.collector.alerting.rules.RuleFileException;
import io.argus.collector.ingest.AgentRegistry;
import io.argus.collector.ingest.ClockWindow;
import io.argus.collector.security.ServerTls;
import io.argus.collector.storage.AgentDirectory;
import io.argus.collector.storage.IngestSink;
import io.argus.collector.storage.QueryStore;
import io.argus.collector.storage.Storage;

/**
 * What a {@link CollectorRole} may open on the collector that runs it: the listeners, alerting and the
 * background work, each over the stores the role hands in.
 */
interface CollectorWiring {

    /** The agents that connected, for ingest and the API. */
    AgentRegistry registry();

    /** Agent ingest over TCP (the agents' protocol) into {@code sink}. */
    void openIngest(IngestSink sink, ClockWindow window, ServerTls tls) throws InterruptedException;

    /** The API and UI: data from {@code queries} ({@code null}: 503), agents from {@code agents}. */
    void openHttp(QueryStore queries, IngestSink sink, AgentDirectory agents, ServerTls tls) throws InterruptedException;

    /** The OTLP receivers the configuration asks for (HTTP on 4318, gRPC on 4317), into {@code sink}. */
    void openOtlp(IngestSink sink, ClockWindow window, ServerTls tls) throws InterruptedException;

    /** Reads the rules file, when there is one, and starts evaluating it over {@code queries}. */
    void startAlerting(QueryStore queries, AgentDirectory agents) throws RuleFileException;

    /** Saves the agents' state in {@code storage} every second, so that a restart knows them. */
    void keepAgentsIn(Storage storage);

    /**
     * The times accepted: up to the allowed skew ahead and, where {@code aging} (a store that keeps retention
     * itself), no older than retention.
     */
    ClockWindow clockWindow(boolean aging);

    /** Deletes what is older than retention from {@code storage}, periodically. */
    void scheduleRetention(Storage storage);

    /** Writes the agents' changed state to {@code storage} now. */
    void saveAgents(Storage storage);
}
