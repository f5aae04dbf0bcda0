package io.argus.collector;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.util.function.Consumer;

/** The TCP server setup the collector's listeners share (ingest, HTTP API, OTLP). */
public final class Listeners {
    private Listeners() {
    }

    /**
     * A server bootstrap on the collector's event loops: reusable address, no Nagle delay, every accepted
     * channel added to {@code channels} (so that closing the group closes them) before {@code pipeline} sets
     * up its handlers.
     */
    public static ServerBootstrap bootstrap(EventLoopGroup boss, EventLoopGroup workers, int backlog,
                                            ChannelGroup channels, Consumer<SocketChannel> pipeline) {
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
                        pipeline.accept(ch);
                    }
                });
    }
}
