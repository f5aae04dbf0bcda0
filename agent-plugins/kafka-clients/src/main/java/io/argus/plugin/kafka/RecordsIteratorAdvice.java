package io.argus.plugin.kafka;

import java.util.Iterator;
import net.bytebuddy.asm.Advice;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;

/** Inlined into {@code ConsumerRecords.iterator()}: the records of a non-empty poll are taken through {@link TracedRecords}. */
public final class RecordsIteratorAdvice {

    private RecordsIteratorAdvice() {
    }

    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(@Advice.This ConsumerRecords<Object, Object> records,
                            @Advice.Return(readOnly = false) Iterator<ConsumerRecord<Object, Object>> iterator) {
        iterator = TracedRecords.wrap(records, iterator);
    }
}
