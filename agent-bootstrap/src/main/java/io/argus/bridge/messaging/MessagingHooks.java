package io.argus.bridge.messaging;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.HeaderGetter;

/** What the core implements behind {@link MessagingCalls}; safe to call with any arguments, nulls included. */
public interface MessagingHooks {

    ActiveSpan startSend(String system, String destination, long startNanos);

    void endSend(ActiveSpan span, Throwable error);

    void sent(String system, String destination, int messages, long nanos, boolean error);

    <C> ActiveSpan startProcess(String system, String destination, long startNanos, C message,
                                HeaderGetter<C> headers);

    void endProcess(ActiveSpan span, long startNanos, String system, String destination, int messages,
                    Throwable error);

    /** Does nothing; in place until the core installs itself, and when the agent is off. */
    MessagingHooks NOOP = new MessagingHooks() {
        @Override
        public ActiveSpan startSend(String system, String destination, long startNanos) {
            return null;
        }

        @Override
        public void endSend(ActiveSpan span, Throwable error) {
        }

        @Override
        public void sent(String system, String destination, int messages, long nanos, boolean error) {
        }

        @Override
        public <C> ActiveSpan startProcess(String system, String destination, long startNanos, C message,
                                           HeaderGetter<C> headers) {
            return null;
        }

        @Override
        public void endProcess(ActiveSpan span, long startNanos, String system, String destination, int messages,
                               Throwable error) {
        }
    };
}
