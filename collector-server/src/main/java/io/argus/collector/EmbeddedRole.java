package io.argus.collector;

import io.argus.collector.ingest.ClockWindow;
import io.argus.collector.security.ServerTls;
import io.argus.collector.storage.IngestSink;
import io.argus.collector.storage.QueryStore;
import io.argus.collector.storage.duckdb.DuckDbStorage;

/**
 * The default collector: agent and OTLP ingest into the embedded DuckDB storage, and the API, UI and alerting
 * over it; agent sessions and retention kept there too.
 */
record EmbeddedRole(DuckDbStorage storage) implements CollectorRole {

    @Override
    public IngestSink sink() {
        return storage;
    }

    @Override
    public QueryStore queries() {
        return storage;
    }

    @Override
    public void start(CollectorWiring c, ServerTls tls) throws Exception {
        c.registry().restore(storage.loadAgents());
        // no older than retention: such data would be deleted within the hour
        ClockWindow window = c.clockWindow(true);
        c.openIngest(storage, window, tls);
        c.startAlerting(storage, c.registry());
        c.openHttp(storage, storage, c.registry(), tls);
        c.openOtlp(storage, window, tls);
        c.keepAgentsIn(storage);
        c.scheduleRetention(storage);
    }

    @Override
    public String describe(CollectorConfig config) {
        return "data " + config.dataDir();
    }

    @Override
    public void close(CollectorWiring c) {
        c.saveAgents(storage);
        storage.close();
    }
}
