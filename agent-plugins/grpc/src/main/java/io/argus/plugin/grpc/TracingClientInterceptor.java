package io.argus.plugin.grpc;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.MethodDescriptor;
import java.util.List;

/** The client side: every call goes through a {@link TracedClientCall}. A helper class. */
public final class TracingClientInterceptor implements ClientInterceptor {
    public static final TracingClientInterceptor INSTANCE = new TracingClientInterceptor();

    private TracingClientInterceptor() {
    }

    /** Adds this interceptor last (it runs first), once. */
    public static void addTo(List<Object> interceptors) {
        if (interceptors != null && !interceptors.contains(INSTANCE)) {
            interceptors.add(INSTANCE);
        }
    }

    @Override
    public <ReqT, RespT> ClientCall<ReqT, RespT> interceptCall(MethodDescriptor<ReqT, RespT> method,
                                                               CallOptions callOptions, Channel next) {
        return new TracedClientCall<ReqT, RespT>(next.newCall(method, callOptions), method.getFullMethodName(),
                next.authority());
    }
}
