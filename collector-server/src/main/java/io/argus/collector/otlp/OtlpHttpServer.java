package io.argus.collector.otlp;

import io.argus.collector.HttpLimits;
import io.argus.collector.ingest.AgentRegistry;
import io.argus.collector.ingest.ClockWindow;
import io.argus.collector.storage.IngestSink;
import io.micrometer.core.instrument.MeterRegistry;
import io.argus.collector.Listeners;
import io.argus.collector.security.HttpAuthenticator;
import io.argus.collector.security.HttpCredentials;
import io.argus.collector.security.ServerTls;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * The OTLP/HTTP receiver ({@code POST /v1/traces}, {@code POST /v1/metrics}, binary protobuf). Pipeline per
 * connection, one job per stage: TLS when configured → read timeout → HTTP codec → credential check when
 * configured (401) → request filter (path, method, content type, encoding, declared size) → gzip/deflate decompression → body aggregation (size cap) → protobuf decoding →
 * routing (mapping, storage, agent registry, answer) → error answers (status, log, count).
 */
public final class OtlpHttpServer implements AutoCloseable {
    /** gRPC status code of a request without valid credentials, in the {@code google.rpc.Status} of a 401. */
    private static final int UNAUTHENTICATED = 16;

    private final Channel serverChannel;
    private final ChannelGroup channels;

    private OtlpHttpServer(Channel serverChannel, ChannelGroup channels) {
        this.serverChannel = serverChannel;
        this.channels = channels;
    }

    public static OtlpHttpServer start(String bind, int port, EventLoopGroup boss, EventLoopGroup workers,
                                       int maxBodyBytes, IngestSink sink, AgentRegistry registry,
                                       MeterRegistry meters, ServerTls tls, HttpCredentials credentials,
                                       HttpLimits limits, ClockWindow window) throws InterruptedException {
        ChannelGroup channels = new DefaultChannelGroup("argus-otlp", GlobalEventExecutor.INSTANCE);
        HttpAuthenticator auth = !credentials.required() ? null : new HttpAuthenticator(credentials, "otlp", meters,
                OtlpResponses.PROTOBUF, message -> OtlpResponses.status(UNAUTHENTICATED, message));
        OtlpPipeline pipeline = new OtlpPipeline(maxBodyBytes, sink, registry, meters, limits, window, auth);
        ServerBootstrap b = Listeners.bootstrap(boss, workers, 256, channels, tls, "otlp", pipeline::install);
        Channel ch = b.bind(bind, port).sync().channel();
        channels.add(ch);
        return new OtlpHttpServer(ch, channels);
    }

    public int port() {
        return ((InetSocketAddress) serverChannel.localAddress()).getPort();
    }

    /** Stops accepting and closes every OTLP connection. */
    @Override
    public void close() {
        channels.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
    }
}
