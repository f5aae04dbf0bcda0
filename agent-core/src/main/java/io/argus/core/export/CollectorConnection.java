package io.argus.core.export;

import io.argus.core.AgentLog;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.DefaultThreadFactory;

import java.util.concurrent.TimeUnit;

/**
 * One TCP connection to the collector. Reconnects by itself with exponential backoff; while it is
 * down, or while more than {@code maxPendingBytes} are waiting to be written, {@link #send} refuses
 * and the caller counts a drop, so a dead or slow collector never holds memory or threads.
 */
final class CollectorConnection {

    private static final long MIN_BACKOFF_MILLIS = 500;

    private final String host;
    private final int port;
    private final byte[] handshake;
    private final long maxBackoffMillis;
    private final EventLoopGroup group;
    private final Bootstrap bootstrap;
    private volatile Channel channel;
    private volatile boolean closed;
    private long backoffMillis = MIN_BACKOFF_MILLIS;
    private boolean reportedDown;

    CollectorConnection(String host, int port, byte[] handshake, int maxPendingBytes, long maxBackoffMillis) {
        this.host = host;
        this.port = port;
        this.handshake = handshake;
        this.maxBackoffMillis = maxBackoffMillis;
        this.group = new NioEventLoopGroup(1, new DefaultThreadFactory("argus-netty", true));
        this.bootstrap = new Bootstrap().group(group).channel(NioSocketChannel.class)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 3000)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.SO_KEEPALIVE, true)
                .option(ChannelOption.ALLOCATOR, new UnpooledByteBufAllocator(false))
                .option(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(maxPendingBytes / 2, maxPendingBytes))
                .handler(new IgnoreInbound());
    }

    void start() {
        connect();
    }

    private void connect() {
        if (closed) {
            return;
        }
        AgentLog.debug("connecting to collector " + host + ":" + port);
        bootstrap.connect(host, port).addListener(new ChannelFutureListener() {
            @Override
            public void operationComplete(ChannelFuture future) {
                if (future.isSuccess()) {
                    onConnected(future.channel());
                } else {
                    onDown(future.cause() == null ? "connect failed" : future.cause().toString());
                }
            }
        });
    }

    private void onConnected(Channel connected) {
        connected.writeAndFlush(Unpooled.wrappedBuffer(handshake));
        channel = connected;
        backoffMillis = MIN_BACKOFF_MILLIS;
        if (reportedDown) {
            AgentLog.info("collector " + host + ":" + port + " reachable again");
        }
        reportedDown = false;
        connected.closeFuture().addListener(new ChannelFutureListener() {
            @Override
            public void operationComplete(ChannelFuture future) {
                channel = null;
                onDown("connection closed");
            }
        });
    }

    private void onDown(String reason) {
        if (closed) {
            return;
        }
        if (!reportedDown) {
            AgentLog.warn("collector " + host + ":" + port + " unavailable (" + reason
                    + "); dropping data and retrying with backoff");
            reportedDown = true;
        }
        long delay = backoffMillis;
        AgentLog.debug("collector down (" + reason + "); next attempt in " + delay + " ms");
        backoffMillis = Math.min(maxBackoffMillis, backoffMillis * 2);
        group.schedule(new Runnable() {
            @Override
            public void run() {
                connect();
            }
        }, delay, TimeUnit.MILLISECONDS);
    }

    /** Queues one frame for writing; false when it cannot be written now (the caller drops it). */
    boolean send(byte[] frame) {
        Channel ch = channel;
        if (ch == null || !ch.isActive() || !ch.isWritable()) {
            return false;
        }
        ch.writeAndFlush(Unpooled.wrappedBuffer(frame), ch.voidPromise());
        return true;
    }

    boolean isConnected() {
        Channel ch = channel;
        return ch != null && ch.isActive();
    }

    /** Waits (bounded) until written frames have left, then closes. */
    void close(long timeoutMillis) {
        closed = true;
        Channel ch = channel;
        if (ch != null) {
            ch.writeAndFlush(Unpooled.EMPTY_BUFFER).awaitUninterruptibly(timeoutMillis);
            ch.close().awaitUninterruptibly(timeoutMillis);
        }
        group.shutdownGracefully(0, timeoutMillis, TimeUnit.MILLISECONDS);
    }

    /** The collector never answers; anything it sends is discarded and errors just close the channel. */
    @ChannelHandler.Sharable
    private static final class IgnoreInbound extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ReferenceCountUtil.release(msg);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            AgentLog.debug("collector connection error: " + cause);
            ctx.close();
        }
    }
}
