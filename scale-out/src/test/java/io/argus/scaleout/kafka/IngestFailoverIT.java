package io.argus.scaleout.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.argus.scaleout.app.LoadApp;
import io.argus.testing.AgentApp;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A real agent (forked JVM) under load, naming two ingest collectors; the one it is connected to is killed. The
 * agent moves to the other, and the spans in Kafka are the spans it sent minus the drops it counted, but for
 * what was in flight to the killed collector at the moment of the kill.
 */
class IngestFailoverIT {
    private static final Duration WAIT = Duration.ofMinutes(3);

    @Test
    void agentMovesToTheOtherCollectorWhenOneIsKilled() throws Exception {
        try (KafkaBroker broker = BrokerSupport.startBroker("failover");
             IngestCollectorProcess a = IngestCollectorProcess.start("ingest-a", broker.bootstrapServers(), "fo-");
             IngestCollectorProcess b = IngestCollectorProcess.start("ingest-b", broker.bootstrapServers(), "fo-");
             TopicReader spans = new TopicReader(broker.bootstrapServers(), "fo-spans");
             TopicReader agents = new TopicReader(broker.bootstrapServers(), "fo-agents")) {
            AgentApp app = AgentApp.builder(LoadApp.class.getName()).service("load")
                    .agent("argus.collector.address", "127.0.0.1:" + a.ingestPort + ",127.0.0.1:" + b.ingestPort)
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
                long requests = Long.parseLong(app.awaitLine("LOAD DONE requests=(\\d+)", WAIT).group(1));

                // the agent's own counters, from its heartbeats (published by the surviving collector): wait until
                // two heartbeats in a row carry the same counts and Kafka holds no more spans than that
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
                    return counters[0] > 0 && counters[0] == before.value().get("sent_spans").asLong()
                            && counters[1] == before.value().get("dropped_spans").asLong();
                }, WAIT);
                long sent = counters[0];
                long dropped = counters[1];
                List<TopicReader.Rec> got = spans.drain(Duration.ofSeconds(3));
                Set<String> ids = new HashSet<>();
                got.forEach(r -> ids.add(r.value().get("trace_id").asText() + r.value().get("span_id").asText()));
                long inKafka = got.size();
                long lostInFlight = sent - inKafka;
                System.out.printf("failover: %d requests; agent sent %d spans,"
                        + " counted %d dropped; Kafka holds %d (%d distinct); in flight to the killed collector and"
                        + " lost: %d%n", requests, sent, dropped, inKafka, ids.size(), lostInFlight);
                // sent_spans counts only spans handed to a connection; drops are counted apart from it
                assertThat(ids).hasSize((int) inKafka); // nothing twice
                assertThat(inKafka).isLessThanOrEqualTo(sent);
                // what the agent sent after the kill went through the other collector
                assertThat(inKafka).isGreaterThan(beforeKill + 1000L);
                // only what was in flight (socket buffers, unacknowledged producer records) at the kill
                assertThat(lostInFlight).as("spans lost in flight at the kill").isLessThanOrEqualTo(
                        Math.max(2000, sent / 20));
                assertThat(b.output()).contains("publishing to Kafka at " + broker.bootstrapServers());
                // both connected events: the first to a, the second, after the kill, to b
                assertThat(agents.poll(Duration.ofMillis(100)).stream()
                        .filter(x -> x.value().get("event").asText().equals("connected")).count())
                        .isGreaterThanOrEqualTo(2);
            }
        }
    }
}
