package io.argus.plugin.kafka;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.messaging.MessagingCalls;
import net.bytebuddy.asm.Advice;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Inlined into {@code KafkaProducer.send(ProducerRecord, Callback)}. Untraced: one volatile read and a branch.
 * Traced: a PRODUCER span, its context written into the record's headers, and the callback wrapped so that the
 * span ends with the broker's answer; a send that throws ends it at once.
 */
public final class SendAdvice {

    private SendAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static ActiveSpan enter(@Advice.Argument(0) ProducerRecord<?, ?> record,
                                   @Advice.Argument(value = 1, readOnly = false) Callback callback) {
        if (record == null) {
            return null;
        }
        ActiveSpan span = MessagingCalls.startSend("kafka", record.topic(), record.headers(), KafkaHeaders.INSTANCE);
        if (span != null) {
            callback = new SendCallback(callback, span);
        }
        return span;
    }

    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    public static void exit(@Advice.Enter ActiveSpan span, @Advice.Thrown Throwable thrown) {
        if (span != null && thrown != null) {
            MessagingCalls.endSend(span, thrown);
        }
    }
}
