package io.argus.plugin.grpc;

import io.argus.core.plugin.ArgusPlugin;
import io.argus.core.plugin.Probes;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * gRPC (grpc-java, any transport): SERVER and CLIENT spans named {@code package.Service/Method} for unary and
 * streaming calls, the context in the call's metadata, gRPC status codes, and the RPC metrics per method.
 *
 * <p>Both sides are interceptors of gRPC's own API, put first in line when a server or a channel is built:
 * {@code ServerImplBuilder.build()} and {@code ManagedChannelImplBuilder.build()} (the builders behind
 * {@code ServerBuilder.forPort}, {@code NettyServerBuilder}, {@code ManagedChannelBuilder.forAddress} and
 * {@code NettyChannelBuilder}) get {@link TracingServerInterceptor} and {@link TracingClientInterceptor} as their
 * last interceptor, which runs first.
 */
public final class GrpcPlugin implements ArgusPlugin {

    private static final String P = "io.argus.plugin.grpc.";

    @Override
    public String name() {
        return "grpc";
    }

    @Override
    public void instrument(Probes probes) {
        probes.type("io.grpc.internal.ServerImplBuilder")
                .helpers(P + "MetadataHeaders", P + "TracedServerCall", P + "TracedServerListener",
                        P + "TracingServerInterceptor")
                .advise(named("build").and(takesArguments(0)), P + "ServerBuildAdvice");
        probes.type("io.grpc.internal.ManagedChannelImplBuilder")
                .helpers(P + "MetadataHeaders", P + "TracedClientCall", P + "TracedClientListener",
                        P + "TracingClientInterceptor")
                .advise(named("build").and(takesArguments(0)), P + "ChannelBuildAdvice");
    }
}
