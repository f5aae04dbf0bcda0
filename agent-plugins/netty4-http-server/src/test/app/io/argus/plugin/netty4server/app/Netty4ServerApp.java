package io.argus.plugin.netty4server.app;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.client.ClientCalls;
import io.argus.bridge.context.TraceContext;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseEncoder;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.util.ReferenceCountUtil;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The application under test, forked with the agent: two Netty 4 HTTP servers on one event loop
 * thread (so every connection shares it, and a leaked context would show):
 * <ul>
 *   <li>{@code port}: {@code HttpServerCodec} + {@code HttpObjectAggregator} + a handler of
 *       {@code FullHttpRequest}s that answers with {@code FullHttpResponse}s;</li>
 *   <li>{@code streamPort}: {@code HttpRequestDecoder} + {@code HttpResponseEncoder} (no combined
 *       codec, no aggregator) + a handler that answers with a chunked response written in parts.</li>
 * </ul>
 * Every response carries {@code x-current}: the {@code traceparent} of the span that was current
 * while the handler saw the request, or {@code none}. Handlers of {@code /hello} and {@code /echo}
 * also make a client call by hand ({@code ClientCalls.start}/{@code end}, host
 * {@code downstream}), as a handler calling another service would.
 */
public final class Netty4ServerApp {

    public static void main(String[] args) throws Exception {
        EventLoopGroup boss = new NioEventLoopGroup(1);
        EventLoopGroup worker = new NioEventLoopGroup(1);
        ScheduledExecutorService later = Executors.newSingleThreadScheduledExecutor();
        Channel aggregated = new ServerBootstrap().group(boss, worker).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast("codec", new HttpServerCodec());
                        ch.pipeline().addLast("aggregator", new HttpObjectAggregator(1 << 20));
                        ch.pipeline().addLast("app", new AppHandler(later));
                    }
                })
                .bind(InetAddress.getLoopbackAddress(), 0).sync().channel();
        Channel streaming = new ServerBootstrap().group(boss, worker).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast("decoder", new HttpRequestDecoder());
                        ch.pipeline().addLast("encoder", new HttpResponseEncoder());
                        ch.pipeline().addLast("app", new StreamingHandler());
                    }
                })
                .bind(InetAddress.getLoopbackAddress(), 0).sync().channel();
        printClassVisibility();
        System.out.println("READY port=" + ((java.net.InetSocketAddress) aggregated.localAddress()).getPort()
                + " streamPort=" + ((java.net.InetSocketAddress) streaming.localAddress()).getPort());
        aggregated.closeFuture().sync();
    }

    static String current() {
        Object context = TraceContext.current();
        return context instanceof ActiveSpan ? ((ActiveSpan) context).traceparent() : "none";
    }

    static void callDownstream() {
        ActiveSpan child = ClientCalls.start("GET", "downstream", 9, "http://downstream/x");
        ClientCalls.end(child, System.nanoTime(), "GET", "downstream", 200, null);
    }

    static void respond(ChannelHandlerContext ctx, boolean keepAlive, HttpResponseStatus status, String body, String current) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                Unpooled.copiedBuffer(body, StandardCharsets.UTF_8));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain");
        response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, response.content().readableBytes());
        response.headers().set("x-current", current);
        if (keepAlive) {
            ctx.writeAndFlush(response);
        } else {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        }
    }

    /** Full requests in, full responses out. */
    static final class AppHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
        private final ScheduledExecutorService later;
        private String current = "none";

        AppHandler(ScheduledExecutorService later) {
            this.later = later;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
            current = current();
            boolean keepAlive = HttpUtil.isKeepAlive(request);
            String path = new QueryStringDecoder(request.uri()).path();
            if (path.startsWith("/hello") || path.startsWith("/echo")) {
                callDownstream();
            }
            switch (path) {
                case "/fail":
                    respond(ctx, keepAlive, HttpResponseStatus.INTERNAL_SERVER_ERROR, "failed", current);
                    return;
                case "/missing":
                    respond(ctx, keepAlive, HttpResponseStatus.NOT_FOUND, "missing", current);
                    return;
                case "/boom":
                    throw new IllegalStateException("boom");
                case "/drop":
                    ctx.close();
                    return;
                case "/echo":
                    respond(ctx, keepAlive, HttpResponseStatus.OK, "echo-" + request.content().readableBytes(), current);
                    return;
                case "/alloc":
                    // bytes allocated so far by this event loop thread (for allocation measurements)
                    respond(ctx, keepAlive, HttpResponseStatus.OK, String.valueOf(((com.sun.management.ThreadMXBean)
                            java.lang.management.ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes()), current);
                    return;
                case "/async": {
                    String seen = current;
                    // answered later from another thread; Netty hands the write to the event loop
                    later.schedule(() -> respond(ctx, keepAlive, HttpResponseStatus.OK, "async", seen), 200, TimeUnit.MILLISECONDS);
                    return;
                }
                default:
                    respond(ctx, keepAlive, HttpResponseStatus.OK, "hello", current);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            respond(ctx, true, HttpResponseStatus.INTERNAL_SERVER_ERROR, "error: " + cause.getMessage(), current);
        }
    }

    /** Request parts in; a chunked response written as a head, three parts 100 ms apart, and the last content. */
    static final class StreamingHandler extends ChannelInboundHandlerAdapter {
        private String current = "none";

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (msg instanceof HttpRequest) {
                    current = current();
                }
                if (msg instanceof LastHttpContent) {
                    HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
                    HttpUtil.setTransferEncodingChunked(head, true);
                    head.headers().set("x-current", current);
                    ctx.writeAndFlush(head);
                    for (int i = 1; i <= 3; i++) {
                        ByteBuf part = Unpooled.copiedBuffer("part" + i + ";", StandardCharsets.UTF_8);
                        ctx.executor().schedule(() -> ctx.writeAndFlush(new DefaultHttpContent(part)), 100L * i, TimeUnit.MILLISECONDS);
                    }
                    ctx.executor().schedule(() -> ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT), 350, TimeUnit.MILLISECONDS);
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }
    }

    /** From a thread of its own once the agent defined its bridge (on its start-up thread), at most 60 s on. */
    private static void printClassVisibility() {
        Thread printer = new Thread(() -> {
            long deadline = System.currentTimeMillis() + 60_000;
            while (!visible("io.argus.bridge.server.ServerCalls") && System.currentTimeMillis() < deadline) {
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    return;
                }
            }
            System.out.println("VISIBILITY bytebuddy=" + visible("io.argus.shaded.net.bytebuddy.ByteBuddy")
                    + " core=" + visible("io.argus.core.AgentRuntime")
                    + " bridge=" + visible("io.argus.bridge.server.ServerCalls"));
        }, "visibility-check");
        printer.setDaemon(true);
        printer.start();
    }

    private static boolean visible(String name) {
        try {
            Class.forName(name, false, Netty4ServerApp.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
