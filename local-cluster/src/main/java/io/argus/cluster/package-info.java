/**
 * Third-party servers on 127.0.0.1 started from Maven Central jars: {@code process} runs and always stops child JVMs,
 * {@code fetch} brings the jars into a cache once, {@code kafka} is a KRaft broker, {@code druid} a Druid cluster
 * with its ZooKeeper. Used by the fleet tool, the overhead suite and the tests; it depends on none of them.
 */
package io.argus.cluster;
