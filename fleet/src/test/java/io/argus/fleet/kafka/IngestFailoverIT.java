package io.argus.fleet.kafka;

import io.argus.cluster.kafka.KafkaBroker;
import static org.assertj.core.api.Assertions.assertThat;

import io.argus.fleet.app.LoadApp;
import io.argus.testing.AgentApp;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import org.junit.jupiter.api.Test;

/**
 * A real agent (forked JVM) under load, naming two ingest collectors; the one it is connected to is killed
 * (SIGKILL). The agent moves to the other and writes there first what the killed one had not acknowledged. Then
 * the distinct spans in Kafka are exactly the spans the agent counted as sent (acknowledged), and sent plus dropped
 * is every span the application made. A span the killed collector had published but not acknowledged is in Kafka
 * twice; such duplicates are at most what the agent wrote again.
 */
class IngestFailoverIT {
    private static final Duration WAIT = Duration.ofMinutes(3);

    @Test
    void agentMovesToTheOtherCollectorWhenOneIsKilledAndEverySpanIsAccountedFor() throws Exception {
        try (KafkaBroker broker = BrokerSupport.startBroker("failover");
             IngestCollectorProcess a = IngestCollectorProcess.start("ingest-a", broker.bootstrapServers(), "fo-");
             IngestCollectorProcess b = IngestCollectorProcess.start("ingest-b", broker.bootstrapServers(), "fo-");
             TopicReader spans = new TopicReader(broker.bootstrapServers(), "fo-spans");
             TopicReader agents = new TopicReader(broker.bootstrapServers(), "fo-agents");
             TopicReader jvm = new TopicReader(broker.bootstrapServers(), "fo-jvm")) {
            AgentApp app = AgentApp.builder(LoadApp.class.getName()).service("load")
                    .agent("argus.collector.address", "127.0.0.1:" + a.ingestPort + ",127.0.0.1:" + b.ingestPort)
                    .agent("argus.metrics.interval", "2s") // heartbeats, with the agent's counters, every 2 s
                    .samplingRate(100)
                    // the JDK server writes headers and body apart: without this, Nagle paces it at 25 calls/s
                    .jvmArg("-Dsun.net.httpserver.nodelay=true")
                    .args("15", "4")
                    .logToTestLogs("failover-load")
                    .start();
            try (app) {
                app.awaitLine("LOAD STARTED", WAIT);
                int beforeKill = spans.until(r -> r.size() >= 1000, WAIT).size();
                a.kill();
                app.awaitLine("collector 127.0.0.1:" + a.ingestPort + " unavailable", WAIT);
                Matcher done = app.awaitLine("LOAD DONE requests=(\\d+) failures=(\\d+) handled=(\\d+)", WAIT);
                long produced = Long.parseLong(done.group(3)); // one server span per request handled

                // the agent's own counters, from its heartbeats (published by the surviving collector): wait until
                // every span is acknowledged or dropped, and two heartbeats in a row agree
                long[] counters = new long[2];
                agents.until(r -> {
                    List<TopicReader.Rec> beats = r.stream()
                            .filter(x -> x.value().get("event").asText().equals("heartbeat")).toList();
                    if (beats.size() < 2) {
                        return false;
                    }
                    TopicReader.Rec last = beats.get(beats.size() - 1);
                    TopicReader.Rec before = beats.get(beats.size() - 2);
                    counters[0] = last.value().get("sent_spans").asLong();
                    counters[1] = last.value().get("dropped_spans").asLong();
                    return counters[0] + counters[1] == produced
                            && counters[0] == before.value().get("sent_spans").asLong()
                            && counters[1] == before.value().get("dropped_spans").asLong();
                }, WAIT);
                long sent = counters[0];
                long dropped = counters[1];
                List<TopicReader.Rec> got = spans.drain(Duration.ofSeconds(3));
                Set<String> ids = new HashSet<>();
                got.forEach(r -> ids.add(r.value().get("trace_id").asText() + r.value().get("span_id").asText()));
                long inKafka = got.size();
                long duplicates = inKafka - ids.size();
                List<TopicReader.Rec> resentSamples = jvm.drain(Duration.ofSeconds(1)).stream()
                        .filter(r -> r.value().get("name").asText().equals("agent.spans.resent")).toList();
                long resent = resentSamples.isEmpty() ? 0
                        : resentSamples.get(resentSamples.size() - 1).value().get("value").asLong();
                System.out.printf("failover: %d spans made (%s requests, %s failed); agent: %d sent (acknowledged),"
                                + " %d dropped, %d written again after the kill; Kafka holds %d records, %d distinct"
                                + " spans, %d twice%n", produced, done.group(1), done.group(2), sent, dropped, resent,
                        inKafka, ids.size(), duplicates);

                assertThat(sent + dropped).as("every span sent or counted as dropped").isEqualTo(produced);
                assertThat((long) ids.size()).as("distinct spans in Kafka: exactly those sent").isEqualTo(sent);
                assertThat(duplicates).as("spans stored twice: at most those written again").isBetween(0L, resent);
                // what the agent sent after the kill went through the other collector
                assertThat((long) ids.size()).isGreaterThan(beforeKill + 1000L);
                assertThat(b.output()).contains("publishing to Kafka at " + broker.bootstrapServers());
                // both connected events: the first to a, the second, after the kill, to b
                assertThat(agents.poll(Duration.ofMillis(100)).stream()
                        .filter(x -> x.value().get("event").asText().equals("connected")).count())
                        .isGreaterThanOrEqualTo(2);
            }
        }
    }
}
