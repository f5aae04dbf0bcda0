package io.argus.plugin.grpc;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.client.ClientCalls;
import io.argus.bridge.context.TraceContext;
import io.argus.bridge.rpc.RpcCalls;
import io.grpc.ClientCall;
import io.grpc.ForwardingClientCall;
import io.grpc.Metadata;
import io.grpc.Status;

/**
 * A client call measured from {@code start} to the listener's {@code onClose}: a traced call (a sampled span
 * current when it starts) gets a CLIENT span and its context in the outgoing metadata, and the context current at
 * the start is current again around the response listener's callbacks. A helper class.
 */
public final class TracedClientCall<ReqT, RespT> extends ForwardingClientCall.SimpleForwardingClientCall<ReqT, RespT> {
    private final String method;
    private final String authority;
    ActiveSpan span;
    Object parentContext;
    long startNanos;
    private volatile boolean ended;

    TracedClientCall(ClientCall<ReqT, RespT> call, String method, String authority) {
        super(call);
        this.method = method;
        this.authority = authority;
    }

    @Override
    public void start(Listener<RespT> responseListener, Metadata headers) {
        startNanos = System.nanoTime();
        try {
            parentContext = TraceContext.current();
            int colon = authority == null ? -1 : authority.lastIndexOf(':');
            String host = colon < 0 ? authority : authority.substring(0, colon);
            int port = colon < 0 ? -1 : Integer.parseInt(authority.substring(colon + 1));
            span = RpcCalls.startClient("grpc", method, host, port, startNanos);
            if (span != null) {
                ClientCalls.inject(span, headers, MetadataHeaders.INSTANCE);
            }
        } catch (Throwable ignored) {
            // untraced
        }
        try {
            super.start(new TracedClientListener<RespT>(responseListener, this), headers);
        } catch (RuntimeException | Error e) {
            end(Status.UNKNOWN.withCause(e));
            throw e;
        }
    }

    /** Records the call with its status, once. */
    void end(Status status) {
        if (ended) {
            return;
        }
        ended = true;
        try {
            RpcCalls.endClient(span, startNanos, "grpc", method, status.getCode().value(), status.getCause());
        } catch (Throwable ignored) {
            // never into gRPC
        }
    }
}
