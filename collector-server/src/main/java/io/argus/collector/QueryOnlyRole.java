package io.argus.collector;

import io.argus.collector.security.ServerTls;
import io.argus.collector.storage.IngestSink;
import io.argus.collector.storage.QueryStore;
import io.argus.collector.storage.druid.DruidStorage;

/**
 * A query node of a fleet: the API, UI and alerting answered from Druid SQL, agents and services from the
 * stored session events; no ingest or OTLP port.
 */
record QueryOnlyRole(DruidStorage druid) implements CollectorRole {

    @Override
    public IngestSink sink() {
        return null;
    }

    @Override
    public QueryStore queries() {
        return druid;
    }

    @Override
    public void start(CollectorWiring c, ServerTls tls) throws Exception {
        c.startAlerting(druid, druid);
        c.openHttp(druid, null, druid, tls);
    }

    @Override
    public String describe(CollectorConfig config) {
        return "queries from Druid " + config.druidQuery().url() + " (no ingest)";
    }

    @Override
    public void close(CollectorWiring c) {
        druid.close();
    }
}
