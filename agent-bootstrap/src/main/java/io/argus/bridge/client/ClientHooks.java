package io.argus.bridge.client;

import io.argus.bridge.ActiveSpan;

/** What the core implements behind {@link ClientCalls}; safe to call with any arguments, nulls included. */
public interface ClientHooks {

    /** {@code startNanos}: when the call started, as {@code System.nanoTime()}. */
    ActiveSpan start(String method, String host, int port, String url, long startNanos);

    void end(ActiveSpan span, long startNanos, String method, String host, int status, Throwable error);

    void endOnCompletion(Object completionStage, ActiveSpan span, long startNanos, String method, String host);

    /** Does nothing; in place until the core installs itself, and when the agent is off. */
    ClientHooks NOOP = new ClientHooks() {
        @Override
        public ActiveSpan start(String method, String host, int port, String url, long startNanos) {
            return null;
        }

        @Override
        public void end(ActiveSpan span, long startNanos, String method, String host, int status, Throwable error) {
        }

        @Override
        public void endOnCompletion(Object completionStage, ActiveSpan span, long startNanos, String method,
                                    String host) {
        }
    };
}
