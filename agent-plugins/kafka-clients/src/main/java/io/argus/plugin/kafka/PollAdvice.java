package io.argus.plugin.kafka;

import net.bytebuddy.asm.Advice;

/**
 * Inlined into {@code KafkaConsumer.poll} and {@code close}: the record the thread took last from the previous
 * poll is done, even when its loop broke off before the iterator moved on.
 */
public final class PollAdvice {

    private PollAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter() {
        TracedRecords.endOpen();
    }
}
