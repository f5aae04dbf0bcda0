package io.argus.collector.ingest;

import io.argus.collector.IngestLimits;
import io.argus.collector.storage.IngestSink;
import io.micrometer.core.instrument.MeterRegistry;
import io.argus.collector.Listeners;
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
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The agent-facing TCP server: TLS when configured (handshake failures logged, counted, closed), then the stages of
 * {@link IngestPipeline}: connection limits (closed at once, before TLS), the gate (closes while the sink cannot hand
 * data on), the handshake deadline, the idle timeout and the frame deadline, length-prefixed framing (size-capped,
 * smaller before the handshake, within the shared memory budget) and, outbound, the length prefix of what the
 * collector writes back, protobuf decoding and encoding, validation, the clock window (drops far-off times),
 * acknowledgements (numbering frames, answering agents that asked), routing to the sink and registry, rejection
 * handling (log, count, refusal, close).
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
        IngestPipeline pipeline = new IngestPipeline(maxFrameBytes, token, maxBatchEntries, idleTimeout, limits, window,
                sink, registry, metrics, meters);
        ChannelGroup channels = new DefaultChannelGroup("argus-ingest", GlobalEventExecutor.INSTANCE);
        ServerBootstrap b = Listeners.bootstrap(boss, workers, 512, channels, tls, "ingest", pipeline::install)
                .childOption(ChannelOption.SO_KEEPALIVE, true);
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
