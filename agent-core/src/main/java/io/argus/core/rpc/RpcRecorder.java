package io.argus.core.rpc;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.HeaderGetter;
import io.argus.bridge.rpc.RpcHooks;
import io.argus.core.metrics.CallMetricsTable;
import io.argus.core.trace.RecordedSpan;
import io.argus.core.trace.Tracer;

/**
 * The agent behind {@code RpcCalls}: RPC server and client spans, and the RPC metrics keyed by (system, full
 * method, status code). A server call failed when its status is a server fault (gRPC's UNKNOWN, DEADLINE_EXCEEDED,
 * UNIMPLEMENTED, INTERNAL, UNAVAILABLE, DATA_LOSS, as OpenTelemetry's RPC conventions count them); a client call
 * failed on any status but OK.
 */
public final class RpcRecorder implements RpcHooks {

    private final Tracer tracer;
    private final CallMetricsTable server;
    private final CallMetricsTable client;

    public RpcRecorder(Tracer tracer, CallMetricsTable server, CallMetricsTable client) {
        this.tracer = tracer;
        this.server = server;
        this.client = client;
    }

    @Override
    public <C> ActiveSpan startServer(String system, String fullMethod, long startNanos, C metadata,
                                      HeaderGetter<C> headers) {
        return tracer.startRpcServer(system, fullMethod, startNanos, metadata, headers);
    }

    @Override
    public void endServer(ActiveSpan span, long startNanos, String system, String fullMethod, int status,
                          Throwable error) {
        end(server, span, startNanos, system, fullMethod, status, error, error != null || isServerFault(status));
    }

    @Override
    public ActiveSpan startClient(String system, String fullMethod, String host, int port, long startNanos) {
        return tracer.startRpcClient(system, fullMethod, host, port, startNanos);
    }

    @Override
    public void endClient(ActiveSpan span, long startNanos, String system, String fullMethod, int status,
                          Throwable error) {
        end(client, span, startNanos, system, fullMethod, status, error, error != null || status != 0);
    }

    private void end(CallMetricsTable table, ActiveSpan span, long startNanos, String system, String fullMethod,
                     int status, Throwable error, boolean failed) {
        long now = System.nanoTime();
        table.record(system, fullMethod, status, now - startNanos, failed);
        if (span instanceof RecordedSpan) {
            RecordedSpan recorded = (RecordedSpan) span;
            recorded.setHttpStatus(status);
            tracer.end(recorded, now, error, failed);
        }
    }

    /** gRPC codes 2 UNKNOWN, 4 DEADLINE_EXCEEDED, 12 UNIMPLEMENTED, 13 INTERNAL, 14 UNAVAILABLE, 15 DATA_LOSS. */
    static boolean isServerFault(int status) {
        return status == 2 || status == 4 || status == 12 || status == 13 || status == 14 || status == 15;
    }
}
