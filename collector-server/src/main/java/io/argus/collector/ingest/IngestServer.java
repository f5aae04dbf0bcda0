package io.argus.collector.ingest;

import io.argus.collector.IngestLimits;
import io.argus.collector.storage.IngestSink;
import io.micrometer.core.instrument.MeterRegistry;
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
 * The agent-facing TCP server. Pipeline per connection, one job per stage: the connection limits (closed at once,
 * before TLS), TLS when configured (handshake failures logged, counted, closed), then the gate (closes while the sink
 * cannot hand data on), then the handshake deadline, the idle timeout and the frame deadline, then length-prefixed
 * framing (size-capped, smaller before the handshake, within the shared memory budget) and, outbound, the length prefix
 * of what the collector writes back, then protobuf decoding and encoding, then validation, then the clock window
 * (drops far-off times), then acknowledgements (numbering frames, answering agents that asked), then routing to the
 * sink and registry, then rejection handling (log, count, refusal, close).
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
                                     IngestLimits limits, ClockWindow window, IngestSink sink,
                                     AgentRegistry registry, IngestMetrics metrics, MeterRegistry meters, ServerTls tls)
            throws InterruptedException {
        RejectionHandler rejections = new RejectionHandler(metrics);
        ConnectionLimiter limiter = new ConnectionLimiter(limits.maxConnections(), limits.maxConnectionsPerAddress(),
                metrics);
        FrameMemoryBudget budget = new FrameMemoryBudget(limits.maxBufferedBytes(), meters);
        TimeWindowFilter timeWindow = new TimeWindowFilter(window);
        FrameProtobufDecoder protobuf = new FrameProtobufDecoder(metrics);
        LengthFieldPrepender prepender = new LengthFieldPrepender(4);
        ProtobufEncoder encoder = new ProtobufEncoder();
        ChannelGroup channels = new DefaultChannelGroup("argus-ingest", GlobalEventExecutor.INSTANCE);
        ServerBootstrap b = Listeners.bootstrap(boss, workers, 512, channels, tls, "ingest", ch -> {
            metrics.connectionOpened();
            ch.closeFuture().addListener((ChannelFutureListener) f -> metrics.connectionClosed());
            // ahead of TLS: a connection over a limit costs no handshake
            ch.pipeline().addFirst("limits", limiter);
            ch.pipeline()
                    .addLast("gate", new SinkGate(sink, metrics))
                    .addLast("handshakeDeadline", new HandshakeDeadline(limits.handshakeTimeout().toMillis()))
                    .addLast("idle", new IdleStateHandler(idleTimeout.toMillis(), 0, 0, TimeUnit.MILLISECONDS))
                    .addLast("frameDeadline", new FrameDeadline(limits.frameTimeout().toMillis()))
                    .addLast("framer", new IngestFrameDecoder(maxFrameBytes, limits.maxHandshakeBytes(), budget))
                    .addLast("prepender", prepender)
                    .addLast("protobuf", protobuf)
                    .addLast("encoder", encoder)
                    .addLast("validator", new FrameValidator(token, maxBatchEntries, metrics))
                    .addLast("timeWindow", timeWindow)
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
            if (ch instanceof SocketChannel) {
                ch.eventLoop().execute(() -> ReadGate.pause(ch, ReadGate.Reason.STOPPING));
            }
        }
    }

    /** Stops accepting and closes every agent connection. */
    @Override
    public void close() {
        channels.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
    }
}
