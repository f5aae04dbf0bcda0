package io.argus.collector.kafka;

import io.argus.collector.RateLimitedLog;
import io.argus.collector.storage.AgentEvent;
import io.argus.collector.record.RecordEncoder;
import io.argus.collector.record.RecordTopic;
import io.argus.collector.storage.IngestSink;
import io.argus.collector.storage.Source;
import io.argus.protocol.CallMetric;
import io.argus.protocol.Gauge;
import io.argus.protocol.MetricBatch;
import io.argus.protocol.Span;
import io.argus.protocol.SpanBatch;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.RecordTooLargeException;

/**
 * Publishes what an ingest-only collector accepts to Kafka, one record per span, call metric cell, JVM gauge and
 * agent session event ({@link RecordEncoder}).
 *
 * <p>Nothing is accepted that cannot be handed on: the producer waits for every in-sync replica ({@code acks=all},
 * idempotent) and retries an accepted record until Kafka takes it; the record bytes handed to the producer and not
 * yet acknowledged are bounded by {@link KafkaSettings#bufferBytes()} (beyond that an offer is refused and the
 * connection pauses reading). When records stay unacknowledged for {@link KafkaSettings#stallTimeout()}, a send
 * fails, or the cluster stops answering, {@link #accepting()} turns false until the cluster answers again and what
 * was waiting is acknowledged: the ingest side then closes agent connections and refuses new ones.
 */
public final class KafkaSink implements IngestSink {
    private static final Logger LOG = Logger.getLogger(KafkaSink.class.getName());
    private static final RateLimitedLog FAILURES = new RateLimitedLog(LOG, TimeUnit.SECONDS.toNanos(10));
    static final long PROBE_MILLIS = 1000;

    private final KafkaSettings settings;
    private final String[] topics = new String[RecordTopic.values().length];
    private final KafkaProducer<byte[], byte[]> producer;
    private final Admin admin;
    private final RecordEncoder encoder = new RecordEncoder();
    private final ScheduledExecutorService health;
    private final Counter[] accepted = new Counter[topics.length];
    private final Counter[] published = new Counter[topics.length];
    private final Counter[] failed = new Counter[topics.length];
    private final Counter[] dropped = new Counter[topics.length];
    /** Accepted records the producer refused to take yet (the rest of a batch); bounded by the pending bytes. */
    private final ConcurrentLinkedDeque<Outgoing> parked = new ConcurrentLinkedDeque<>();
    private final AtomicLong pendingBytes = new AtomicLong();
    private final AtomicLong pendingRecords = new AtomicLong();
    /** When Kafka last acknowledged a record, or records started waiting after none did. */
    private final AtomicLong lastProgressNanos = new AtomicLong(System.nanoTime());
    /** Why the node does not accept data now; {@code null} while it does. */
    private volatile String unavailable;
    private volatile long unavailableSinceMs;
    private volatile boolean closed;

    private KafkaSink(KafkaSettings settings, KafkaProducer<byte[], byte[]> producer, Admin admin,
                      MeterRegistry meters) {
        this.settings = settings;
        this.producer = producer;
        this.admin = admin;
        for (RecordTopic t : RecordTopic.values()) {
            String name = settings.topic(t);
            topics[t.ordinal()] = name;
            accepted[t.ordinal()] = Counter.builder("argus.kafka.records.accepted").tag("topic", name)
                    .description("Records handed to the Kafka producer").register(meters);
            published[t.ordinal()] = Counter.builder("argus.kafka.records.published").tag("topic", name)
                    .description("Records Kafka acknowledged (acks=all)").register(meters);
            failed[t.ordinal()] = Counter.builder("argus.kafka.publish.failures").tag("topic", name)
                    .description("Records Kafka refused for good (logged)").register(meters);
            dropped[t.ordinal()] = Counter.builder("argus.kafka.records.dropped").tag("topic", name)
                    .description("Agent session events not published while Kafka was unavailable").register(meters);
        }
        meters.gauge("argus.kafka.records.pending", pendingRecords);
        meters.gauge("argus.kafka.pending.bytes", pendingBytes);
        meters.gauge("argus.kafka.available", this, s -> s.unavailable == null ? 1 : 0);
        this.health = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "argus-kafka-health");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Connects, checks (or creates) the four topics and learns their partitions.
     *
     * @throws IllegalStateException with one line naming the setting at fault when the cluster cannot be reached,
     *                               a topic is missing or the client settings are refused
     */
    public static KafkaSink start(KafkaSettings settings, MeterRegistry meters) {
        KafkaProducer<byte[], byte[]> producer = null;
        Admin admin = null;
        try {
            admin = Admin.create(KafkaClientConfig.admin(settings));
            KafkaTopics.ensure(admin, settings);
            producer = new KafkaProducer<>(KafkaClientConfig.producer(settings));
            KafkaTopics.learnPartitions(producer, settings);
        } catch (RuntimeException e) {
            if (producer != null) {
                producer.close(Duration.ZERO);
            }
            if (admin != null) {
                admin.close(Duration.ZERO);
            }
            throw e instanceof IllegalStateException ? e
                    : new IllegalStateException("Kafka client settings refused (--kafka-bootstrap "
                    + settings.bootstrap() + ", --kafka-config): " + e.getMessage(), e);
        }
        KafkaSink sink = new KafkaSink(settings, producer, admin, meters);
        sink.health.scheduleWithFixedDelay(sink::checkHealth, PROBE_MILLIS, PROBE_MILLIS, TimeUnit.MILLISECONDS);
        sink.health.scheduleWithFixedDelay(sink::sendParked, 100, 100, TimeUnit.MILLISECONDS);
        LOG.info("publishing to Kafka at " + settings.bootstrap() + ", topics " + String.join(", ", sink.topics));
        return sink;
    }

    /** {@code handedOn} runs once Kafka acknowledged every record of the batch. */
    @Override
    public boolean offerSpans(Source source, SpanBatch batch, Runnable handedOn) {
        if (!roomForMore()) {
            return false;
        }
        int n = batch.getSpansCount();
        Handoff handoff = new Handoff(n, handedOn);
        List<Outgoing> out = new ArrayList<>(n);
        long bytes = 0;
        for (int i = 0; i < n; i++) {
            Span span = batch.getSpans(i);
            Outgoing o = new Outgoing(RecordTopic.SPANS, RecordEncoder.spanKey(span), encoder.span(source, span),
                    handoff);
            out.add(o);
            bytes += o.size();
        }
        return publish(out, bytes, handoff);
    }

    /** {@code handedOn} runs once Kafka acknowledged every record of the batch. */
    @Override
    public boolean offerMetrics(Source source, MetricBatch batch, Runnable handedOn) {
        if (!roomForMore()) {
            return false;
        }
        Handoff handoff = new Handoff(batch.getCallsCount() + batch.getJvmCount(), handedOn);
        List<Outgoing> out = new ArrayList<>(batch.getCallsCount() + batch.getJvmCount());
        long bytes = 0;
        byte[] callKey = RecordEncoder.callKey(source);
        for (CallMetric cell : batch.getCallsList()) {
            Outgoing o = new Outgoing(RecordTopic.CALLS, callKey, encoder.call(source, batch, cell), handoff);
            out.add(o);
            bytes += o.size();
        }
        byte[] instanceKey = RecordEncoder.instanceKey(source);
        for (Gauge gauge : batch.getJvmList()) {
            Outgoing o = new Outgoing(RecordTopic.JVM, instanceKey, encoder.jvm(source, batch, gauge), handoff);
            out.add(o);
            bytes += o.size();
        }
        return publish(out, bytes, handoff);
    }

    /** Whether a batch could be taken now; checked before encoding it, since a refused offer is retried. */
    private boolean roomForMore() {
        return unavailable == null && pendingBytes.get() < settings.bufferBytes();
    }

    @Override
    public void agentEvent(AgentEvent event) {
        Outgoing o = new Outgoing(RecordTopic.AGENTS, RecordEncoder.instanceKey(event.source()),
                encoder.agent(event), null);
        if (unavailable != null || !publish(List.of(o), o.size(), null)) {
            dropped[RecordTopic.AGENTS.ordinal()].increment();
        }
    }

    /** One record; {@code handoff} is that of its batch, {@code null} for a session event nobody waits for. */
    private record Outgoing(RecordTopic topic, byte[] key, byte[] value, Handoff handoff) {
        long size() {
            return key.length + value.length;
        }
    }

    /**
     * The records of one batch that Kafka has not acknowledged yet: at the last acknowledgement the batch is handed
     * on. A record refused for its own sake (too large) is counted and logged and still ends its batch: sending it
     * again would fail the same way. A record lost because the cluster failed never ends it, so the agent, whose
     * connection the node then closes, sends the batch again elsewhere.
     */
    private static final class Handoff {
        private final AtomicInteger left;
        private final Runnable handedOn;
        private volatile boolean lost;

        Handoff(int records, Runnable handedOn) {
            this.left = new AtomicInteger(records);
            this.handedOn = handedOn;
        }

        void recordDone(Exception e) {
            if (e != null && !(e instanceof RecordTooLargeException)) {
                lost = true;
            }
            if (left.decrementAndGet() == 0 && !lost) {
                try {
                    handedOn.run();
                } catch (RuntimeException failure) {
                    LOG.log(Level.FINE, "hand-off callback failed", failure); // the producer's accounting goes on
                }
            }
        }
    }

    /**
     * Takes all of {@code out} or nothing: nothing when the pending bytes would pass the bound, records wait in
     * {@link #parked}, or the producer refuses the first record. When it refuses a later one (its {@code send()}
     * gave up waiting for metadata, as it does while the cluster is gone), the rest of the batch is parked and
     * handed on in order once the producer takes records again: what was accepted stays accepted.
     */
    private boolean publish(List<Outgoing> out, long bytes, Handoff handoff) {
        if (closed || !parked.isEmpty()) {
            return false;
        }
        if (out.isEmpty()) {
            if (handoff != null) {
                handoff.handedOn.run(); // a metric batch without cells or gauges: nothing to wait for
            }
            return true;
        }
        long now = pendingBytes.addAndGet(bytes);
        if (now > settings.bufferBytes() && now != bytes) {
            pendingBytes.addAndGet(-bytes);
            return false;
        }
        if (pendingRecords.getAndAdd(out.size()) == 0) {
            lastProgressNanos.set(System.nanoTime()); // a quiet spell before is no stall
        }
        for (int i = 0, n = out.size(); i < n; i++) {
            Outgoing o = out.get(i);
            RuntimeException refused = send(o);
            if (refused == null) {
                accepted[o.topic().ordinal()].increment();
                continue;
            }
            markUnavailable("the producer refused a record: " + refused.getMessage());
            if (i == 0) {
                pendingBytes.addAndGet(-bytes);
                pendingRecords.addAndGet(-n);
                return false;
            }
            synchronized (parked) {
                for (int j = i; j < n; j++) {
                    accepted[out.get(j).topic().ordinal()].increment();
                    parked.addLast(out.get(j));
                }
            }
            return true;
        }
        return true;
    }

    /** {@code null} when the producer took {@code o}, else why not (nothing else happened then). */
    private RuntimeException send(Outgoing o) {
        Delivery delivery = new Delivery(o, Thread.currentThread());
        try {
            producer.send(new ProducerRecord<>(topics[o.topic().ordinal()], o.key(), o.value()), delivery);
        } catch (RuntimeException e) {
            return e; // the producer closed under us
        }
        delivery.sender = null;
        return delivery.refused;
    }

    /**
     * The callback of one record. The producer reports a record it cannot take now (no metadata within
     * {@code max.block.ms}, as while the cluster is gone) through this callback on the sending thread, before
     * {@code send()} returns; that is a refusal to take the record, not a failed delivery. Other errors (a
     * record over {@code max.request.size}) are failed deliveries of that record, wherever they are reported.
     */
    private final class Delivery implements Callback {
        private final Outgoing record;
        volatile Thread sender;
        RuntimeException refused;

        Delivery(Outgoing record, Thread sender) {
            this.record = record;
            this.sender = sender;
        }

        @Override
        public void onCompletion(RecordMetadata metadata, Exception e) {
            if (e instanceof org.apache.kafka.common.errors.TimeoutException && Thread.currentThread() == sender) {
                refused = e instanceof RuntimeException r ? r : new IllegalStateException(e);
                return;
            }
            acknowledged(record, e);
        }
    }

    /** Hands parked records on, oldest first, while the producer takes them. */
    private void sendParked() {
        synchronized (parked) {
            Outgoing o;
            while ((o = parked.peekFirst()) != null && send(o) == null) {
                parked.pollFirst();
            }
        }
    }

    private void acknowledged(Outgoing o, Exception e) {
        int t = o.topic().ordinal();
        if (e == null) {
            lastProgressNanos.set(System.nanoTime());
            published[t].increment();
        } else {
            failed[t].increment();
            FAILURES.warn(o.topic(), "Kafka refused a record for " + topics[t] + " (" + o.size() + " bytes): " + e);
            if (!(e instanceof RecordTooLargeException)) {
                // a refusal of the cluster, not of this one record: stop taking data until it answers again
                markUnavailable("publishing to " + topics[t] + " failed: " + e.getMessage());
            }
        }
        if (o.handoff() != null) {
            o.handoff().recordDone(e); // before the pending count drops: a flush returns after the hand-off
        }
        pendingBytes.addAndGet(-o.size());
        pendingRecords.decrementAndGet();
    }

    private void markUnavailable(String reason) {
        if (unavailable == null) {
            unavailableSinceMs = System.currentTimeMillis();
            LOG.warning("Kafka at " + settings.bootstrap() + " cannot take data (" + reason
                    + "): closing agent connections and refusing new ones until it does");
        }
        unavailable = reason;
    }

    /** Runs every {@value #PROBE_MILLIS} ms: stalls and cluster answers decide whether the node accepts data. */
    private void checkHealth() {
        try {
            long waiting = pendingRecords.get();
            long sinceAck = System.nanoTime() - lastProgressNanos.get();
            boolean stalled = waiting > 0 && sinceAck > settings.stallTimeout().toNanos();
            if (stalled) {
                markUnavailable(waiting + " records unacknowledged for "
                        + TimeUnit.NANOSECONDS.toSeconds(sinceAck) + " s");
                return;
            }
            String problem = KafkaTopics.probe(admin, Duration.ofMillis(Math.max(2 * PROBE_MILLIS,
                    settings.stallTimeout().toMillis())));
            if (problem != null) {
                markUnavailable(problem);
            } else if (unavailable != null && waiting == 0 && parked.isEmpty()) {
                LOG.info("Kafka at " + settings.bootstrap() + " takes data again after "
                        + (System.currentTimeMillis() - unavailableSinceMs) / 1000 + " s: accepting agents");
                unavailable = null;
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Kafka health check failed", e);
        }
    }

    @Override
    public boolean accepting() {
        return unavailable == null && !closed;
    }

    @Override
    public String unavailableReason() {
        String why = unavailable;
        return why == null ? (closed ? "the collector is stopping" : "") : "Kafka unavailable: " + why;
    }

    /** Records handed to the producer and not yet acknowledged. */
    public long pendingRecords() {
        return pendingRecords.get();
    }

    /** Records of {@code topic} Kafka acknowledged so far. */
    public long published(RecordTopic topic) {
        return (long) published[topic.ordinal()].count();
    }

    /** Records of {@code topic} handed to the producer so far. */
    public long accepted(RecordTopic topic) {
        return (long) accepted[topic.ordinal()].count();
    }

    @Override
    public boolean flush(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (pendingRecords.get() > 0) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        health.shutdownNow();
        if (!flush(Duration.ofSeconds(10))) {
            LOG.warning(pendingRecords.get() + " records accepted but not acknowledged by Kafka at "
                    + settings.bootstrap() + " are lost with this stop");
        }
        producer.close(Duration.ofSeconds(1));
        admin.close(Duration.ofSeconds(1));
    }
}
