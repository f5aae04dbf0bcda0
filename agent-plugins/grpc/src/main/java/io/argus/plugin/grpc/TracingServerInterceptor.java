package io.argus.plugin.grpc;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.context.TraceContext;
import io.argus.bridge.rpc.RpcCalls;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.util.List;

/**
 * The server side: each call is measured from the interceptor to its close or cancel ({@link TracedServerCall}),
 * and a traced call's SERVER span, joined to the caller's context in the metadata, is current around every
 * callback of the call's listener ({@link TracedServerListener}), on whichever thread gRPC runs it. A helper class.
 */
public final class TracingServerInterceptor implements ServerInterceptor {
    public static final TracingServerInterceptor INSTANCE = new TracingServerInterceptor();

    private TracingServerInterceptor() {
    }

    /** Adds this interceptor last (it runs first), once. */
    public static void addTo(List<Object> interceptors) {
        if (interceptors != null && !interceptors.contains(INSTANCE)) {
            interceptors.add(INSTANCE);
        }
    }

    @Override
    public <ReqT, RespT> ServerCall.Listener<ReqT> interceptCall(ServerCall<ReqT, RespT> call, Metadata headers,
                                                                 ServerCallHandler<ReqT, RespT> next) {
        long startNanos = System.nanoTime();
        String method = call.getMethodDescriptor().getFullMethodName();
        ActiveSpan span = null;
        try {
            span = RpcCalls.startServer("grpc", method, startNanos, headers, MetadataHeaders.INSTANCE);
        } catch (Throwable ignored) {
            // untraced
        }
        TracedServerCall<ReqT, RespT> traced = new TracedServerCall<ReqT, RespT>(call, span, startNanos, method);
        ServerCall.Listener<ReqT> listener;
        try {
            listener = next.startCall(traced, headers);
        } catch (RuntimeException | Error e) {
            traced.end(Status.UNKNOWN.withCause(e));
            throw e;
        } finally {
            if (span != null) {
                // from here on the span is current only around the listener's callbacks
                TraceContext.detach(span);
            }
        }
        return new TracedServerListener<ReqT>(listener, traced);
    }
}
