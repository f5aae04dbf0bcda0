/**
 * The records an ingest collector publishes to Kafka and the store side ingests: one JSON object per record,
 * UTF-8, snake_case fields, epoch milliseconds in {@code ts}. The schema is documented in {@code docs/scale-out.md}.
 */
package io.argus.collector.record;
