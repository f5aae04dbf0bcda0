package io.argus.fleet;

import java.nio.file.Path;

/**
 * What a local fleet is made of and where its parts come from.
 *
 * @param work               Kafka's and Druid's data, every process's log
 * @param agentJar           {@code argus-agent.jar} of an agent layout (its {@code lib/} and {@code plugins/} beside it)
 * @param collectorClassPath class path of {@code io.argus.collector.CollectorMain}
 * @param serviceClassPath   class path of the sample service ({@code io.argus.perf.sample.SampleService}, Jetty 12)
 * @param queryHttpPort      the query collector's HTTP port (API and UI); 0 picks a free one
 * @param requestsPerSecond  traffic sent to {@code /front/call} while the fleet runs; 0 sends none
 * @param prefix             topic and datasource prefix
 * @param alertRules         the query collector's alert rules file; {@code null}: none
 */
public record FleetOptions(Path work, Path agentJar, String collectorClassPath, String serviceClassPath,
                           int queryHttpPort, double requestsPerSecond, String prefix, Path alertRules) {
}
