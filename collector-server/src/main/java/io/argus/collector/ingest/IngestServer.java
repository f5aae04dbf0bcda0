package io.argus.collector.ingest;

import io.argus.collector.storage.IngestSink;
import io.argus.collector.Listeners;
import io.argus.collector.security.ServerTls;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.LengthFieldPrepender;
import io.netty.handler.codec.protobuf.ProtobufEncoder;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The agent-facing TCP server. Pipeline per connection, one job per stage: TLS when configured (handshake
 * failures logged, counted, closed), then the gate (closes while the sink cannot hand data on), then idle
 * timeout, then length-prefixed framing (size-capped) and, outbound, the length prefix of what the collector writes
 * back, then protobuf decoding and encoding, then validation, then acknowledgements (numbering frames, answering
 * agents that asked), then routing to the sink and registry, then rejection handling (log, count, close).
 */
public final class IngestServer implements AutoCloseable {
    private final ChannelGroup channels;
    private final Channel serverChannel;

    private IngestServer(Channel serverChannel, ChannelGroup channels) {
        this.serverChannel = serverChannel;
        this.channels = channels;
    }

    public static IngestServer start(String bind, int port, EventLoopGroup boss, EventLoopGroup workers,
                                     int maxFrameBytes, String token, int maxBatchEntries, Duration idleTimeout,
                                     IngestSink sink, AgentRegistry registry, IngestMetrics metrics, ServerTls tls)
            throws InterruptedException {
        RejectionHandler rejections = new RejectionHandler(metrics);
        FrameProtobufDecoder protobuf = new FrameProtobufDecoder(metrics);
        LengthFieldPrepender prepender = new LengthFieldPrepender(4);
        ProtobufEncoder encoder = new ProtobufEncoder();
        ChannelGroup channels = new DefaultChannelGroup("argus-ingest", GlobalEventExecutor.INSTANCE);
        ServerBootstrap b = Listeners.bootstrap(boss, workers, 512, channels, tls, "ingest", ch -> {
            metrics.connectionOpened();
            ch.closeFuture().addListener((ChannelFutureListener) f -> metrics.connectionClosed());
            ch.pipeline()
                    .addLast("gate", new SinkGate(sink, metrics))
                    .addLast("idle", new IdleStateHandler(idleTimeout.toMillis(), 0, 0, TimeUnit.MILLISECONDS))
                    .addLast("framer", new IngestFrameDecoder(maxFrameBytes))
                    .addLast("prepender", prepender)
                    .addLast("protobuf", protobuf)
                    .addLast("encoder", encoder)
                    .addLast("validator", new FrameValidator(token, maxBatchEntries, metrics))
                    .addLast("acks", new FrameAcknowledger())
                    .addLast("router", new FrameRouter(sink, registry, metrics))
                    .addLast("rejections", rejections);
        }).childOption(ChannelOption.SO_KEEPALIVE, true);
        Channel ch = b.bind(bind, port).sync().channel();
        channels.add(ch);
        return new IngestServer(ch, channels);
    }

    public int port() {
        return ((InetSocketAddress) serverChannel.localAddress()).getPort();
    }

    /**
     * Stops accepting connections and reading frames; the connections stay open, so that what was read can still be
     * handed on and acknowledged before {@link #close}.
     */
    public void stopReading() {
        serverChannel.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        for (Channel ch : channels) {
            ch.config().setAutoRead(false);
        }
    }

    /** Stops accepting and closes every agent connection. */
    @Override
    public void close() {
        channels.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
    }
}
