package io.argus.core.messaging;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.HeaderGetter;
import io.argus.bridge.Tags;
import io.argus.bridge.messaging.MessagingHooks;
import io.argus.core.metrics.CallMetricsTable;
import io.argus.core.trace.RecordedSpan;
import io.argus.core.trace.Tracer;

/**
 * The agent behind {@code MessagingCalls}: PRODUCER and CONSUMER spans, and the messaging metrics, one table for
 * messages produced (acknowledged by the broker) and one for messages processed, each keyed by (system,
 * destination) with status 0.
 */
public final class MessagingRecorder implements MessagingHooks {

    private final Tracer tracer;
    private final CallMetricsTable produced;
    private final CallMetricsTable consumed;

    public MessagingRecorder(Tracer tracer, CallMetricsTable produced, CallMetricsTable consumed) {
        this.tracer = tracer;
        this.produced = produced;
        this.consumed = consumed;
    }

    @Override
    public ActiveSpan startSend(String system, String destination, long startNanos) {
        return tracer.startProducer(system, destination, startNanos);
    }

    @Override
    public void endSend(ActiveSpan span, Throwable error) {
        if (span instanceof RecordedSpan) {
            tracer.end((RecordedSpan) span, System.nanoTime(), error, error != null);
        }
    }

    @Override
    public void sent(String system, String destination, int messages, long nanos, boolean error) {
        produced.record(system, destination, 0, nanos, error, messages);
    }

    @Override
    public <C> ActiveSpan startProcess(String system, String destination, long startNanos, C message,
                                       HeaderGetter<C> headers) {
        return tracer.startInbound(RecordedSpan.KIND_CONSUMER, system, destination, startNanos, message, headers, null);
    }

    @Override
    public void endProcess(ActiveSpan span, long startNanos, String system, String destination, int messages,
                           Throwable error) {
        long now = System.nanoTime();
        consumed.record(system, destination, 0, now - startNanos, error != null, messages);
        if (span instanceof RecordedSpan) {
            RecordedSpan recorded = (RecordedSpan) span;
            if (messages > 1) {
                recorded.tag(Tags.MESSAGING_BATCH_COUNT, Integer.toString(messages));
            }
            tracer.end(recorded, now, error, error != null);
        }
    }
}
