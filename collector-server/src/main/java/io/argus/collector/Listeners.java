package io.argus.collector;

import io.argus.collector.security.HttpAuthenticator;
import io.argus.collector.security.ServerTls;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.timeout.ReadTimeoutHandler;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/** The TCP server setup the collector's listeners share (ingest, HTTP API, OTLP). */
public final class Listeners {
    private Listeners() {
    }

    /**
     * A server bootstrap on the collector's event loops: reusable address, no Nagle delay, every accepted
     * channel added to {@code channels} (so that closing the group closes them) before {@code pipeline} sets
     * up its handlers. With {@code tls} the pipeline starts with TLS (handshake failures of {@code listener} are
     * logged, counted and closed there).
     */
    public static ServerBootstrap bootstrap(EventLoopGroup boss, EventLoopGroup workers, int backlog,
                                            ChannelGroup channels, ServerTls tls, String listener,
                                            Consumer<SocketChannel> pipeline) {
        ChannelHandler handshake = tls == null ? null : tls.handshakeHandler(listener);
        return new ServerBootstrap()
                .group(boss, workers)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, backlog)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        channels.add(ch);
                        if (tls != null) {
                            tls.install(ch, handshake);
                        }
                        pipeline.accept(ch);
                    }
                });
    }

    /**
     * The front of an HTTP listener's pipeline: the read timeout, the HTTP codec with the request line and header
     * limits and, when {@code auth} is not {@code null}, its credential check, so that the stages added after these
     * only see authenticated requests. A request over a size limit reaches the next stages as a failed decode
     * ({@link HttpDecodeFailures} gives its status).
     */
    public static void httpFront(ChannelPipeline pipeline, HttpLimits limits, HttpAuthenticator auth) {
        pipeline.addLast("timeout", new ReadTimeoutHandler(limits.readTimeout().toMillis(), TimeUnit.MILLISECONDS))
                .addLast("codec", new HttpServerCodec(limits.maxRequestLineBytes(), limits.maxHeaderBytes(), 8192));
        if (auth != null) {
            pipeline.addLast("auth", auth.newHandler());
        }
    }

}
