package io.argus.plugin.grpc.app;

import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.net.InetSocketAddress;

/**
 * One service of {@code GrpcIT}'s chain: {@code GrpcApp [NEXT_PORT]} serves {@link ChainService} on a free port of
 * 127.0.0.1 (Netty transport) and prints {@code PORT n}; with {@code NEXT_PORT} its methods call that service.
 */
public final class GrpcApp {

    private GrpcApp() {
    }

    public static void main(String[] args) throws Exception {
        ManagedChannel next = args.length == 0 ? null
                : NettyChannelBuilder.forAddress("127.0.0.1", Integer.parseInt(args[0])).usePlaintext().build();
        Server server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .addService(new ChainService(next).definition()).build().start();
        System.out.println("PORT " + server.getPort());
        server.awaitTermination();
    }
}
