package io.argus.bridge.rpc;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.AgentStatus;
import io.argus.bridge.HeaderGetter;

/**
 * Remote procedure calls (gRPC): SERVER and CLIENT spans named by the full method ({@code package.Service/Method}),
 * status codes of the RPC system, and the RPC metrics per method. Context goes in and out through the call's
 * metadata as through HTTP headers ({@code ClientCalls.inject} writes it). See the package {@code io.argus.bridge}.
 */
public final class RpcCalls {

    private static volatile RpcHooks hooks = RpcHooks.NOOP;

    private RpcCalls() {
    }

    public static void install(RpcHooks implementation) {
        hooks = implementation == null ? RpcHooks.NOOP : implementation;
    }

    /**
     * Starts a SERVER span for a call of {@code fullMethod}, joined to the caller's context read from
     * {@code metadata} (or a new root when sampled), and makes it current on this thread; null when not traced.
     */
    public static <C> ActiveSpan startServer(String system, String fullMethod, long startNanos, C metadata,
                                             HeaderGetter<C> headers) {
        return hooks().startServer(system, fullMethod, startNanos, metadata, headers);
    }

    /** Records the call in the RPC server metrics (per method and status code) and ends the span, if any. */
    public static void endServer(ActiveSpan span, long startNanos, String system, String fullMethod, int status,
                                 Throwable error) {
        hooks().endServer(span, startNanos, system, fullMethod, status, error);
    }

    /** Starts a CLIENT span for a call of {@code fullMethod} to {@code host:port}, under the current span; null when not traced. */
    public static ActiveSpan startClient(String system, String fullMethod, String host, int port, long startNanos) {
        return hooks().startClient(system, fullMethod, host, port, startNanos);
    }

    /** Records the call in the RPC client metrics (per method and status code) and ends the span, if any. */
    public static void endClient(ActiveSpan span, long startNanos, String system, String fullMethod, int status,
                                 Throwable error) {
        hooks().endClient(span, startNanos, system, fullMethod, status, error);
    }

    /** The core's hooks; before the core is ready (advice in a class defined early), waits for it. */
    private static RpcHooks hooks() {
        RpcHooks installed = hooks;
        if (installed == RpcHooks.NOOP) {
            AgentStatus.awaitSettled();
            installed = hooks;
        }
        return installed;
    }
}
