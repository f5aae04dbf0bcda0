package io.argus.collector;

import io.argus.collector.kafka.KafkaSink;
import io.argus.collector.security.ServerTls;
import io.argus.collector.storage.IngestSink;
import io.argus.collector.storage.QueryStore;

/**
 * An ingest node of a fleet: agent and OTLP ingest published to Kafka; nothing is stored, the API answers its
 * own and the agents' state, and its data endpoints 503.
 */
record IngestOnlyRole(KafkaSink kafka) implements CollectorRole {

    @Override
    public IngestSink sink() {
        return kafka;
    }

    @Override
    public QueryStore queries() {
        return null;
    }

    @Override
    public void start(CollectorWiring c, ServerTls tls) throws Exception {
        // the store behind Kafka keeps its own retention: only the future is refused here
        var window = c.clockWindow(false);
        c.openIngest(kafka, window, tls);
        c.openHttp(null, kafka, c.registry(), tls);
        c.openOtlp(kafka, window, tls);
    }

    @Override
    public String describe(CollectorConfig config) {
        return "ingest-only, publishing to Kafka at " + config.kafka().bootstrap();
    }

    @Override
    public void close(CollectorWiring c) {
        kafka.close();
    }
}
