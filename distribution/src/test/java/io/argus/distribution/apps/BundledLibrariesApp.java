package io.argus.distribution.apps;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.Version;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * An application that ships its own Netty and protobuf (the versions Apache Druid bundles): it
 * echoes a protobuf message through its own Netty server and prints what it saw.
 */
public final class BundledLibrariesApp {

    public static void main(String[] args) throws Exception {
        System.out.println("NETTY " + Version.identify().get("netty-common").artifactVersion());
        System.out.println("PROTOBUF " + Struct.class.getProtectionDomain().getCodeSource().getLocation());

        Struct message = Struct.newBuilder().putFields("greeting", Value.newBuilder().setStringValue("hello").build()).build();
        EventLoopGroup group = new NioEventLoopGroup(2);
        try {
            Channel server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(new SimpleChannelInboundHandler<ByteBuf>() {
                                @Override
                                protected void channelRead0(ChannelHandlerContext ctx, ByteBuf msg) {
                                    ctx.writeAndFlush(msg.retainedDuplicate());
                                }
                            });
                        }
                    }).bind("127.0.0.1", 0).sync().channel();
            int port = ((InetSocketAddress) server.localAddress()).getPort();
            CompletableFuture<byte[]> echoed = new CompletableFuture<>();
            byte[] sent = message.toByteArray();
            Channel client = new Bootstrap().group(group).channel(NioSocketChannel.class)
                    .handler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(new SimpleChannelInboundHandler<ByteBuf>() {
                                private final ByteBuf received = Unpooled.buffer();

                                @Override
                                protected void channelRead0(ChannelHandlerContext ctx, ByteBuf msg) {
                                    received.writeBytes(msg);
                                    if (received.readableBytes() >= sent.length) {
                                        byte[] bytes = new byte[received.readableBytes()];
                                        received.readBytes(bytes);
                                        echoed.complete(bytes);
                                    }
                                }
                            });
                        }
                    }).connect("127.0.0.1", port).sync().channel();
            client.writeAndFlush(Unpooled.wrappedBuffer(sent)).sync();
            Struct back = Struct.parseFrom(echoed.get(10, TimeUnit.SECONDS));
            System.out.println("ECHO " + new String(back.getFieldsOrThrow("greeting").getStringValue()
                    .getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8));
            client.close().sync();
            server.close().sync();
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
        System.out.println("DONE");
        Thread.sleep(Long.parseLong(System.getProperty("stay.ms", "0")));
    }
}
