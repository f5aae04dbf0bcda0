package io.argus.collector.ingest;

import io.argus.collector.IngestLimits;
import io.argus.collector.storage.IngestSink;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.handler.codec.LengthFieldPrepender;
import io.netty.handler.codec.protobuf.ProtobufEncoder;
import io.netty.handler.timeout.IdleStateHandler;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The handlers of an agent connection, in order, one job each: the connection limits (ahead of TLS, which the
 * server adds), the sink gate, the handshake deadline, the idle timeout, the frame deadline, the framer within the
 * shared memory budget, the length prefix and protobuf encoder of what goes back, protobuf decoding, validation, the
 * clock window, acknowledgements, routing, rejection handling. The sharable ones and the budget are made once and
 * shared by every connection of a listener; the server and the decoder's fuzz test build connections alike.
 */
final class IngestPipeline {
    private final int maxFrameBytes;
    private final String token;
    private final int maxBatchEntries;
    private final Duration idleTimeout;
    private final IngestLimits limits;
    private final IngestSink sink;
    private final AgentRegistry registry;
    private final IngestMetrics metrics;
    private final RejectionHandler rejections;
    private final ConnectionLimiter limiter;
    private final FrameMemoryBudget budget;
    private final TimeWindowFilter timeWindow;
    private final FrameProtobufDecoder protobuf;
    private final LengthFieldPrepender prepender = new LengthFieldPrepender(4);
    private final ProtobufEncoder encoder = new ProtobufEncoder();

    IngestPipeline(int maxFrameBytes, String token, int maxBatchEntries, Duration idleTimeout, IngestLimits limits,
                   ClockWindow window, IngestSink sink, AgentRegistry registry, IngestMetrics metrics,
                   MeterRegistry meters) {
        this.maxFrameBytes = maxFrameBytes;
        this.token = token;
        this.maxBatchEntries = maxBatchEntries;
        this.idleTimeout = idleTimeout;
        this.limits = limits;
        this.sink = sink;
        this.registry = registry;
        this.metrics = metrics;
        this.rejections = new RejectionHandler(metrics);
        this.limiter = new ConnectionLimiter(limits.maxConnections(), limits.maxConnectionsPerAddress(), metrics);
        this.budget = new FrameMemoryBudget(limits.maxBufferedBytes(), meters);
        this.timeWindow = new TimeWindowFilter(window);
        this.protobuf = new FrameProtobufDecoder(metrics);
    }

    /** Sets up a new connection's pipeline (after TLS, when the server put it there). */
    void install(Channel ch) {
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
    }

    /** Bytes reserved for frames in progress, across connections. */
    long bufferedBytes() {
        return budget.reserved();
    }
}
