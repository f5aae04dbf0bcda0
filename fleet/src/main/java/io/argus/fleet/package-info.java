/**
 * The fleet deployment: Kafka between stateless ingest collectors and Apache Druid, started from Maven Central
 * jars and bound to 127.0.0.1.
 */
package io.argus.fleet;
