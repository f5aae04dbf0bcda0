package io.argus.bridge.server;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.HeaderGetter;

/** What the core implements behind {@link ServerCalls}; safe to call with any arguments, nulls included. */
public interface ServerHooks {

    /** {@code startNanos}: when the request started, as {@code System.nanoTime()}. */
    <C> ActiveSpan start(String method, String path, long startNanos, C request, HeaderGetter<C> headers);

    void end(ActiveSpan span, long startNanos, String method, String path, int status, Throwable error);

    void route(String template);

    /** Does nothing; in place until the core installs itself, and when the agent is off. */
    ServerHooks NOOP = new ServerHooks() {
        @Override
        public <C> ActiveSpan start(String method, String path, long startNanos, C request, HeaderGetter<C> headers) {
            return null;
        }

        @Override
        public void end(ActiveSpan span, long startNanos, String method, String path, int status, Throwable error) {
        }

        @Override
        public void route(String template) {
        }
    };
}
