package io.argus.collector.otlp;

import io.argus.collector.Listeners;
import io.argus.collector.ingest.AgentRegistry;
import io.argus.collector.ingest.ClockWindow;
import io.argus.collector.security.HttpCredentials;
import io.argus.collector.security.ServerTls;
import io.argus.collector.storage.IngestSink;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.timeout.ReadTimeoutHandler;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * The OTLP/gRPC receiver (TraceService/Export and MetricsService/Export, unary, identity or gzip messages) on
 * Netty's HTTP/2 codec, beside OTLP/HTTP and with its mapping. Pipeline per connection: TLS when configured (ALPN
 * {@code h2}) → read timeout → HTTP/2 frame codec → one child channel per call → connection errors (counted). Per
 * call: head check (method, path, content type, credential, encoding) → message decoding (prefix, size cap, gzip,
 * protobuf) → routing (mapping, storage, agent registry, answer) → error answers (grpc-status, log, count).
 */
public final class OtlpGrpcServer implements AutoCloseable {
    /** A connection that sends nothing (not even a ping) for this long is closed. */
    static final int IDLE_SECONDS = 300;

    private final Channel serverChannel;
    private final ChannelGroup channels;
    private final GrpcMetrics grpcMetrics;

    private OtlpGrpcServer(Channel serverChannel, ChannelGroup channels, GrpcMetrics grpcMetrics) {
        this.serverChannel = serverChannel;
        this.channels = channels;
        this.grpcMetrics = grpcMetrics;
    }

    public static OtlpGrpcServer start(String bind, int port, EventLoopGroup boss, EventLoopGroup workers,
                                       int maxMessageBytes, IngestSink sink, AgentRegistry registry,
                                       MeterRegistry meters, ServerTls tls, HttpCredentials credentials,
                                       ClockWindow window, long storeWaitMillis)
            throws InterruptedException {
        OtlpMetrics metrics = new OtlpMetrics(meters);
        GrpcMetrics grpcMetrics = new GrpcMetrics(meters);
        GrpcErrorHandler errors = new GrpcErrorHandler(grpcMetrics);
        MetricMapper metricMapper = new MetricMapper();
        ChannelGroup channels = new DefaultChannelGroup("argus-otlp-grpc", GlobalEventExecutor.INSTANCE);
        ChannelInitializer<Http2StreamChannel> perCall = new ChannelInitializer<>() {
            @Override
            protected void initChannel(Http2StreamChannel ch) {
                ch.pipeline()
                        .addLast("filter", new GrpcRequestFilter(credentials))
                        .addLast("messages", new GrpcMessageDecoder(maxMessageBytes))
                        .addLast("router", new GrpcExportRouter(sink, registry, metricMapper, metrics, window,
                                storeWaitMillis))
                        .addLast("errors", errors);
            }
        };
        ServerBootstrap b = Listeners.bootstrap(boss, workers, 256, channels, tls == null ? null : tls.http2(),
                "otlp-grpc", ch -> ch.pipeline()
                        .addLast("timeout", new ReadTimeoutHandler(IDLE_SECONDS))
                        .addLast("http2", Http2FrameCodecBuilder.forServer()
                                .initialSettings(Http2Settings.defaultSettings().maxConcurrentStreams(100)
                                        .maxHeaderListSize(16 * 1024)
                                        .initialWindowSize(GrpcConnectionWindow.WINDOW_BYTES))
                                .build())
                        .addLast("window", new GrpcConnectionWindow())
                        .addLast("calls", new Http2MultiplexHandler(perCall))
                        .addLast("errors", errors));
        Channel ch = b.bind(bind, port).sync().channel();
        channels.add(ch);
        return new OtlpGrpcServer(ch, channels, grpcMetrics);
    }

    public int port() {
        return ((InetSocketAddress) serverChannel.localAddress()).getPort();
    }

    public GrpcMetrics metrics() {
        return grpcMetrics;
    }

    /** Stops accepting and closes every OTLP/gRPC connection. */
    @Override
    public void close() {
        channels.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
    }
}
