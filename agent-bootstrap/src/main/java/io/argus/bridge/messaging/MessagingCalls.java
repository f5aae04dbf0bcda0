package io.argus.bridge.messaging;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.AgentStatus;
import io.argus.bridge.HeaderGetter;
import io.argus.bridge.HeaderSetter;

/**
 * Messages sent to and processed from a broker (Kafka): PRODUCER and CONSUMER spans, context carried in the
 * message's headers, and the messaging metrics per (system, destination). See the package {@code io.argus.bridge}.
 */
public final class MessagingCalls {

    private static volatile MessagingHooks hooks = MessagingHooks.NOOP;

    private MessagingCalls() {
    }

    public static void install(MessagingHooks implementation) {
        hooks = implementation == null ? MessagingHooks.NOOP : implementation;
    }

    /**
     * Starts a PRODUCER span for one message sent to {@code destination}, as a child of the current span, and
     * writes its context into the message's headers; null (and nothing written) when this thread has no sampled
     * span. End it with {@link #endSend} once the broker has acknowledged the message.
     */
    public static <C> ActiveSpan startSend(String system, String destination, C message, HeaderSetter<C> headers) {
        ActiveSpan span = hooks().startSend(system, destination, System.nanoTime());
        if (span != null) {
            headers.set(message, "traceparent", span.traceparent());
            headers.set(message, "tracestate", span.tracestate());
        }
        return span;
    }

    /** Ends a PRODUCER span: the broker acknowledged the message, or refused it with {@code error}. */
    public static void endSend(ActiveSpan span, Throwable error) {
        hooks().endSend(span, error);
    }

    /**
     * Records {@code messages} messages acknowledged (or, with {@code error}, refused) by the broker for
     * {@code destination}, {@code nanos} after they were handed to the client, traced or not.
     */
    public static void sent(String system, String destination, int messages, long nanos, boolean error) {
        hooks().sent(system, destination, messages, nanos, error);
    }

    /**
     * Starts processing one message (or a batch, given its first message that carries a context): a CONSUMER
     * span that continues the producer's trace read from {@code headers} (W3C, then B3), or a new root when
     * sampled, made current on this thread. Null when not traced. Every call must be paired with
     * {@link #endProcess}, on this thread.
     */
    public static <C> ActiveSpan startProcess(String system, String destination, long startNanos, C message,
                                              HeaderGetter<C> headers) {
        return hooks().startProcess(system, destination, startNanos, message, headers);
    }

    /**
     * Ends the processing that {@link #startProcess} began: records {@code messages} messages in the consume
     * metrics, traced or not, and ends the span, if any, restoring this thread's previous context.
     */
    public static void endProcess(ActiveSpan span, long startNanos, String system, String destination, int messages,
                                  Throwable error) {
        hooks().endProcess(span, startNanos, system, destination, messages, error);
    }

    /** The core's hooks; before the core is ready (advice in a class defined early), waits for it. */
    private static MessagingHooks hooks() {
        MessagingHooks installed = hooks;
        if (installed == MessagingHooks.NOOP) {
            AgentStatus.awaitSettled();
            installed = hooks;
        }
        return installed;
    }
}
