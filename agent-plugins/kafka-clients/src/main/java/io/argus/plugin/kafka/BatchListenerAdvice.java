package io.argus.plugin.kafka;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.messaging.MessagingCalls;
import net.bytebuddy.asm.Advice;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;

/**
 * Inlined into Spring Kafka's {@code ListenerConsumer.invokeBatchListener(ConsumerRecords)}: the batch is one
 * CONSUMER span, the child of its first record that carries a context (Argus has no span links, see README.md),
 * and each of its records counts as consumed with the batch's processing time.
 */
public final class BatchListenerAdvice {

    private BatchListenerAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static ActiveSpan enter(@Advice.Argument(0) ConsumerRecords<?, ?> records,
                                   @Advice.Local("argusStartNanos") long startNanos,
                                   @Advice.Local("argusTopic") String topic) {
        startNanos = TracedRecords.batchStarts();
        ConsumerRecord<?, ?> context = records == null ? null : TracedRecords.contextRecord(records);
        if (context == null) {
            return null;
        }
        topic = context.topic();
        return MessagingCalls.startProcess("kafka", topic, startNanos, context.headers(), KafkaHeaders.INSTANCE);
    }

    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    public static void exit(@Advice.Argument(0) ConsumerRecords<?, ?> records, @Advice.Enter ActiveSpan span,
                            @Advice.Local("argusStartNanos") long startNanos,
                            @Advice.Local("argusTopic") String topic, @Advice.Thrown Throwable thrown) {
        TracedRecords.batchEnds();
        if (topic != null) {
            MessagingCalls.endProcess(span, startNanos, "kafka", topic, records.count(), thrown);
        }
    }
}
