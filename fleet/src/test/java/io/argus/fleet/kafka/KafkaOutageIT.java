package io.argus.fleet.kafka;

import io.argus.cluster.kafka.KafkaBroker;
import static org.assertj.core.api.Assertions.assertThat;

import io.argus.collector.Collector;
import io.argus.collector.kafka.KafkaSink;
import io.argus.collector.record.RecordTopic;
import io.argus.collector.testing.Spans;
import io.argus.collector.testing.TestAgent;
import io.argus.protocol.SpanBatch;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * Kafka killed under a steady stream of spans: the ingest collector stops accepting (closes and refuses agent
 * connections with a logged reason, answers OTLP with 503), stays up, accepts again when the broker is back, and
 * every span it accepted reaches Kafka exactly once.
 */
class KafkaOutageIT {
    private static final Duration WAIT = Duration.ofSeconds(120);

    /** An agent stand-in: batches of 10 spans with sequential ids every 10 ms, reconnecting when closed. */
    private static final class Sender implements Runnable {
        final int port;
        final AtomicBoolean running = new AtomicBoolean(true);
        final AtomicLong nextId = new AtomicLong(1);
        final AtomicInteger connections = new AtomicInteger();
        final AtomicInteger closedByServer = new AtomicInteger();

        Sender(int port) {
            this.port = port;
        }

        @Override
        public void run() {
            while (running.get()) {
                try (TestAgent agent = new TestAgent(port)) {
                    connections.incrementAndGet();
                    agent.hello("steady", "steady-1");
                    while (running.get()) {
                        SpanBatch.Builder b = SpanBatch.newBuilder();
                        for (int i = 0; i < 10; i++) {
                            long id = nextId.getAndIncrement();
                            b.addSpans(Spans.simple(id / 100 + 1, id));
                        }
                        agent.spans(b.build());
                        Thread.sleep(10);
                    }
                } catch (IOException e) {
                    closedByServer.incrementAndGet();
                    sleep(200);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        private static void sleep(long ms) {
            try {
                Thread.sleep(ms);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Test
    void brokerKilledAndBack() throws Exception {
        List<String> logged = Collections.synchronizedList(new ArrayList<>());
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord r) {
                logged.add(r.getLoggerName() + ": " + r.getMessage());
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger collectorLog = Logger.getLogger("io.argus.collector");
        collectorLog.addHandler(capture);
        try (KafkaBroker broker = BrokerSupport.startBroker("outage");
             Collector c = BrokerSupport.startIngest(broker, "out-")) {
            KafkaSink sink = (KafkaSink) c.sink();
            Sender sender = new Sender(c.ingestPort());
            Thread t = new Thread(sender, "steady-sender");
            t.start();
            try {
                BrokerSupport.await("spans published", WAIT, () -> sink.published(RecordTopic.SPANS) >= 500);

                broker.kill();
                BrokerSupport.await("the collector to stop accepting", WAIT, () -> !sink.accepting());
                BrokerSupport.await("agent connections closed", WAIT,
                        () -> c.ingestMetrics().refusedUnavailableCount() > 0 && sender.closedByServer.get() > 0);
                assertThat(logged).anyMatch(l -> l.contains("KafkaSink") && l.contains("cannot take data"));
                assertThat(logged).anyMatch(l -> l.contains("SinkGate") && l.contains("Kafka unavailable"));

                // a new agent is refused at once; nothing is accepted meanwhile; the collector answers
                try (TestAgent late = new TestAgent(c.ingestPort())) {
                    try {
                        late.hello("late", "late-1");
                    } catch (java.net.SocketException closedBeforeTheHandshake) {
                        // refused so fast that the handshake met a closed connection: the same refusal
                    }
                    assertThat(late.closedByServer(30_000)).isTrue();
                }
                long acceptedDuringOutage = sink.accepted(RecordTopic.SPANS);
                Thread.sleep(3000);
                assertThat(sink.accepted(RecordTopic.SPANS)).isEqualTo(acceptedDuringOutage);
                assertThat(BrokerSupport.get(c.httpUrl() + "metrics").body()).contains("argus_kafka_available 0.0");
                assertThat(BrokerSupport.post("http://127.0.0.1:" + c.otlpHttpPort() + "/v1/traces",
                        "application/x-protobuf", new byte[0]).statusCode()).isEqualTo(503);

                broker.restart();
                BrokerSupport.await("the collector to accept again", WAIT, sink::accepting);
                long resumedAt = sink.accepted(RecordTopic.SPANS);
                BrokerSupport.await("spans accepted after the outage", WAIT,
                        () -> sink.accepted(RecordTopic.SPANS) >= resumedAt + 500);
            } finally {
                sender.running.set(false);
                t.join(30_000);
            }
            assertThat(c.flush(WAIT)).isTrue();
            long accepted = sink.accepted(RecordTopic.SPANS);
            assertThat(sink.published(RecordTopic.SPANS)).isEqualTo(accepted);
            try (TopicReader spans = new TopicReader(broker.bootstrapServers(), "out-spans")) {
                List<TopicReader.Rec> got = spans.until(r -> r.size() >= accepted, WAIT);
                got = spans.drain(Duration.ofSeconds(2));
                Set<String> ids = new HashSet<>();
                for (TopicReader.Rec r : got) {
                    ids.add(r.value().get("span_id").asText());
                }
                // every accepted span arrived, none twice
                assertThat(got).hasSize((int) accepted);
                assertThat(ids).hasSize((int) accepted);
            }
            assertThat(sender.connections.get()).isGreaterThan(1);
        } finally {
            collectorLog.removeHandler(capture);
        }
    }
}
