package io.argus.plugin.kafka;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.messaging.MessagingCalls;
import java.util.Iterator;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;

/**
 * The iterator over a poll's records that processes each record the application takes: from the {@code next()}
 * that returns it (a CONSUMER span, current on the thread, continuing the producer's trace from the record's
 * headers) until the iterator moves on or is exhausted, or the consumer polls again or closes ({@link #endOpen}),
 * so that a loop that breaks early leaves nothing on the thread. One per non-empty poll; an untraced record costs
 * no allocation of its own. A helper class: it never throws into the consumer but what the records' own iterator
 * throws.
 */
public final class TracedRecords<K, V> implements Iterator<ConsumerRecord<K, V>> {
    /** The iterator this thread took last, set once per poll (not per record), cleared once it is exhausted. */
    private static final ThreadLocal<TracedRecords<?, ?>> OPEN = new ThreadLocal<TracedRecords<?, ?>>();
    /** Set while a batch listener's records are taken from the poll: the batch is one span, not one per record. */
    private static final ThreadLocal<Object> IN_BATCH = new ThreadLocal<Object>();

    private final Iterator<ConsumerRecord<K, V>> records;
    /** The record in process: its topic (null when none), its span and its start. */
    private String topic;
    private ActiveSpan span;
    private long startNanos;

    private TracedRecords(Iterator<ConsumerRecord<K, V>> records) {
        this.records = records;
    }

    /** {@code records.iterator()}, traced unless it is empty or a batch listener takes it. */
    public static <K, V> Iterator<ConsumerRecord<K, V>> wrap(ConsumerRecords<K, V> owner,
                                                            Iterator<ConsumerRecord<K, V>> iterator) {
        if (iterator == null || iterator instanceof TracedRecords || owner.isEmpty() || IN_BATCH.get() != null) {
            return iterator;
        }
        TracedRecords<K, V> traced = new TracedRecords<K, V>(iterator);
        OPEN.set(traced);
        return traced;
    }

    /** Ends the processing of the record this thread took last, if it is still open. */
    public static void endOpen() {
        TracedRecords<?, ?> open = OPEN.get();
        if (open != null) {
            OPEN.set(null);
            open.endRecord();
        }
    }

    @Override
    public boolean hasNext() {
        boolean more = records.hasNext();
        if (!more) {
            endRecord();
            if (OPEN.get() == this) {
                OPEN.set(null);
            }
        }
        return more;
    }

    @Override
    public ConsumerRecord<K, V> next() {
        endRecord();
        ConsumerRecord<K, V> record = records.next();
        beginRecord(record);
        return record;
    }

    @Override
    public void remove() {
        records.remove();
    }

    private void beginRecord(ConsumerRecord<K, V> record) {
        try {
            startNanos = System.nanoTime();
            topic = record.topic();
            span = MessagingCalls.startProcess("kafka", topic, startNanos, record.headers(), KafkaHeaders.INSTANCE);
        } catch (Throwable t) {
            topic = null;
            span = null;
        }
    }

    private void endRecord() {
        String ended = topic;
        if (ended == null) {
            return;
        }
        ActiveSpan s = span;
        topic = null;
        span = null;
        try {
            MessagingCalls.endProcess(s, startNanos, "kafka", ended, 1, null);
        } catch (Throwable ignored) {
            // never into the application's loop
        }
    }

    // ---- Spring Kafka's batch listeners (BatchListenerAdvice)

    /** Marks this thread as taking a batch listener's records, and returns the start of its processing. */
    public static long batchStarts() {
        IN_BATCH.set(Boolean.TRUE);
        return System.nanoTime();
    }

    public static void batchEnds() {
        IN_BATCH.set(null);
    }

    /** The first record of the batch that carries a trace context, else its first record; null when empty. */
    public static ConsumerRecord<?, ?> contextRecord(ConsumerRecords<?, ?> batch) {
        ConsumerRecord<?, ?> first = null;
        for (ConsumerRecord<?, ?> record : batch) {
            if (first == null) {
                first = record;
            }
            if (record.headers().lastHeader("traceparent") != null || record.headers().lastHeader("b3") != null) {
                return record;
            }
        }
        return first;
    }
}
