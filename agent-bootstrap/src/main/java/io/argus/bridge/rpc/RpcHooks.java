package io.argus.bridge.rpc;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.HeaderGetter;

/** What the core implements behind {@link RpcCalls}; safe to call with any arguments, nulls included. */
public interface RpcHooks {

    <C> ActiveSpan startServer(String system, String fullMethod, long startNanos, C metadata, HeaderGetter<C> headers);

    void endServer(ActiveSpan span, long startNanos, String system, String fullMethod, int status, Throwable error);

    ActiveSpan startClient(String system, String fullMethod, String host, int port, long startNanos);

    void endClient(ActiveSpan span, long startNanos, String system, String fullMethod, int status, Throwable error);

    /** Does nothing; in place until the core installs itself, and when the agent is off. */
    RpcHooks NOOP = new RpcHooks() {
        @Override
        public <C> ActiveSpan startServer(String system, String fullMethod, long startNanos, C metadata,
                                          HeaderGetter<C> headers) {
            return null;
        }

        @Override
        public void endServer(ActiveSpan span, long startNanos, String system, String fullMethod, int status,
                              Throwable error) {
        }

        @Override
        public ActiveSpan startClient(String system, String fullMethod, String host, int port, long startNanos) {
            return null;
        }

        @Override
        public void endClient(ActiveSpan span, long startNanos, String system, String fullMethod, int status,
                              Throwable error) {
        }
    };
}
