package io.argus.plugin.grpc;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.rpc.RpcCalls;
import io.grpc.ForwardingServerCall;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.Status;

/** A server call that records itself when it closes (or, through its listener, when the client cancels it). A helper class. */
public final class TracedServerCall<ReqT, RespT> extends ForwardingServerCall.SimpleForwardingServerCall<ReqT, RespT> {
    final ActiveSpan span;
    private final long startNanos;
    private final String method;
    private volatile boolean ended;

    TracedServerCall(ServerCall<ReqT, RespT> call, ActiveSpan span, long startNanos, String method) {
        super(call);
        this.span = span;
        this.startNanos = startNanos;
        this.method = method;
    }

    @Override
    public void close(Status status, Metadata trailers) {
        end(status);
        super.close(status, trailers);
    }

    /** Records the call with its status, once. */
    void end(Status status) {
        if (ended) {
            return;
        }
        ended = true;
        try {
            RpcCalls.endServer(span, startNanos, "grpc", method, status.getCode().value(), status.getCause());
        } catch (Throwable ignored) {
            // never into gRPC
        }
    }
}
