package io.argus.plugin.kafka;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.messaging.MessagingCalls;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * The application's callback of a traced send, behind one that ends the PRODUCER span when the broker answers.
 * A helper class; only traced sends allocate one.
 */
public final class SendCallback implements Callback {
    private final Callback delegate;
    private final ActiveSpan span;

    public SendCallback(Callback delegate, ActiveSpan span) {
        this.delegate = delegate;
        this.span = span;
    }

    @Override
    public void onCompletion(RecordMetadata metadata, Exception exception) {
        try {
            MessagingCalls.endSend(span, exception);
        } catch (Throwable ignored) {
            // never into the producer's I/O thread
        }
        if (delegate != null) {
            delegate.onCompletion(metadata, exception);
        }
    }
}
