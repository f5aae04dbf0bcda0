package io.argus.plugin.kafka;

import io.argus.bridge.messaging.MessagingCalls;
import net.bytebuddy.asm.Advice;
import org.apache.kafka.common.TopicPartition;

/**
 * Inlined into {@code ProducerBatch.done(baseOffset, logAppendTime, exception, ...)}, on the producer's sender
 * thread: the first completion of a batch counts its records as produced to the topic, each with the batch's age
 * (from its creation to the broker's answer, in the producer's milliseconds) as latency, and as errors when the
 * broker refused them or the batch expired. Traced or not, it allocates nothing.
 */
public final class BatchDoneAdvice {

    private BatchDoneAdvice() {
    }

    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(@Advice.Return boolean first, @Advice.Argument(2) RuntimeException error,
                            @Advice.FieldValue("topicPartition") TopicPartition partition,
                            @Advice.FieldValue("recordCount") int records,
                            @Advice.FieldValue("createdMs") long createdMs) {
        if (first && partition != null) {
            long ageMillis = Math.max(0, System.currentTimeMillis() - createdMs);
            MessagingCalls.sent("kafka", partition.topic(), records, ageMillis * 1_000_000L, error != null);
        }
    }
}
