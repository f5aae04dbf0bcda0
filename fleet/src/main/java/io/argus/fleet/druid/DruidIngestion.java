package io.argus.fleet.druid;

import io.argus.cluster.druid.DruidApi;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Starts, suspends and resumes the Kafka supervisors of every datasource (each reads the topic of its name). */
public final class DruidIngestion {
    private final DruidApi api;
    private final DruidSpecs specs;

    public DruidIngestion(DruidApi api, DruidSpecs specs) {
        this.api = api;
        this.specs = specs;
    }

    /** Posts (creates or replaces) the supervisor of each datasource; returns their ids. */
    public List<String> startSupervisors(String bootstrapServers) throws IOException, InterruptedException {
        List<String> ids = new ArrayList<>();
        for (String datasource : specs.all()) {
            ids.add(api.submitSupervisor(specs.kafkaSupervisor(datasource, bootstrapServers)));
        }
        return ids;
    }

    /** Stops reading Kafka; the topics keep what arrives meanwhile. */
    public void suspendAll() throws IOException, InterruptedException {
        for (String datasource : specs.all()) {
            api.suspendSupervisor(datasource);
        }
    }

    /** Reads on from the offsets each supervisor stopped at. */
    public void resumeAll() throws IOException, InterruptedException {
        for (String datasource : specs.all()) {
            api.resumeSupervisor(datasource);
        }
    }
}
