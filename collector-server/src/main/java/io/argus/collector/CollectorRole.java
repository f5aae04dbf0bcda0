package io.argus.collector;

import io.argus.collector.security.ServerTls;
import io.argus.collector.storage.IngestSink;
import io.argus.collector.storage.QueryStore;

/**
 * What a collector is for, and so which stores it holds and which listeners it opens: the embedded collector
 * (ingest and queries on DuckDB, the default), an ingest-only node (ingest to Kafka, no queries) or a query node
 * (queries from Druid, no ingest). The collector runs whichever its configuration names,
 * and the role opens its listeners through {@link CollectorWiring}.
 */
interface CollectorRole {

    /** Where ingest hands what it accepts; {@code null} on a query node. */
    IngestSink sink();

    /** What the API reads; {@code null} on an ingest-only node, whose data endpoints answer 503. */
    QueryStore queries();

    /** Opens the role's listeners and starts its background work on {@code collector}'s event loops. */
    void start(CollectorWiring collector, ServerTls tls) throws Exception;

    /** The end of the start line: where the data goes. */
    String describe(CollectorConfig config);

    /** Writes out what is kept and closes the stores, once the listeners are closed. */
    void close(CollectorWiring collector);
}
