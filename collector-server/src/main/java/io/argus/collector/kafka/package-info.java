/**
 * The ingest-only role ({@code --storage kafka}): validated agent and OTLP data published as the records of
 * {@link io.argus.collector.record} to one Kafka topic per signal, with no local storage.
 */
package io.argus.collector.kafka;
