package io.argus.plugin.netty3.app;

import org.jboss.netty.bootstrap.ClientBootstrap;
import org.jboss.netty.buffer.ChannelBuffer;
import org.jboss.netty.channel.Channel;
import org.jboss.netty.channel.ChannelException;
import org.jboss.netty.channel.ChannelFuture;
import org.jboss.netty.channel.ChannelHandlerContext;
import org.jboss.netty.channel.ChannelPipeline;
import org.jboss.netty.channel.ChannelStateEvent;
import org.jboss.netty.channel.Channels;
import org.jboss.netty.channel.ExceptionEvent;
import org.jboss.netty.channel.MessageEvent;
import org.jboss.netty.channel.SimpleChannelUpstreamHandler;
import org.jboss.netty.channel.socket.nio.NioClientSocketChannelFactory;
import org.jboss.netty.handler.codec.http.DefaultHttpRequest;
import org.jboss.netty.handler.codec.http.HttpChunk;
import org.jboss.netty.handler.codec.http.HttpClientCodec;
import org.jboss.netty.handler.codec.http.HttpContentDecompressor;
import org.jboss.netty.handler.codec.http.HttpHeaders;
import org.jboss.netty.handler.codec.http.HttpMethod;
import org.jboss.netty.handler.codec.http.HttpRequest;
import org.jboss.netty.handler.codec.http.HttpResponse;
import org.jboss.netty.handler.codec.http.HttpVersion;

import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.net.URL;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A Netty 3 HTTP client built the way Apache Druid 33's {@code NettyHttpClient} is (read from its
 * sources): a {@code ClientBootstrap} whose pipelines hold {@code HttpClientCodec} and
 * {@code HttpContentDecompressor}; a pool of connected channels per host, kept alive between
 * requests; per request a {@code DefaultHttpRequest} with a {@code Host} header, a
 * {@code SimpleChannelUpstreamHandler} added last to the pipeline that collects the response
 * (head, then chunks until the last one) on the I/O thread and removes itself, and the request
 * written from the caller's thread. Failures surface as Druid's do: a pool channel that cannot
 * connect fails the future before anything is written; an exception or a disconnect while waiting
 * fails it with that exception.
 */
public final class DruidStyleClient implements AutoCloseable {

    /** What a request ended with. */
    public static final class Result {
        public final int status;
        public final String body;
        public final int chunks;
        public final int channelId;

        Result(int status, String body, int chunks, int channelId) {
            this.status = status;
            this.body = body;
            this.chunks = chunks;
            this.channelId = channelId;
        }
    }

    private final ExecutorService boss = Executors.newCachedThreadPool();
    private final ExecutorService workers = Executors.newCachedThreadPool();
    private final ClientBootstrap bootstrap;
    private final Map<String, BlockingQueue<Channel>> pool = new ConcurrentHashMap<>();

    public DruidStyleClient() {
        bootstrap = new ClientBootstrap(new NioClientSocketChannelFactory(boss, workers, 2));
        bootstrap.setPipelineFactory(() -> {
            ChannelPipeline pipeline = Channels.pipeline();
            pipeline.addLast("codec", new HttpClientCodec());
            pipeline.addLast("inflater", new HttpContentDecompressor());
            return pipeline;
        });
        bootstrap.setOption("tcpNoDelay", true);
        bootstrap.setOption("keepAlive", true);
    }

    /** A channel of the pool for this host (connecting a new one if none is idle), or the connect failure. */
    public ChannelFuture take(String host, int port) {
        BlockingQueue<Channel> idle = pool.computeIfAbsent(host + ":" + port, k -> new LinkedBlockingQueue<>());
        Channel channel;
        while ((channel = idle.poll()) != null) {
            if (channel.isOpen()) {
                return Channels.succeededFuture(channel);
            }
        }
        return bootstrap.connect(new InetSocketAddress(host, port));
    }

    void giveBack(Channel channel, String host, int port) {
        if (channel.isOpen()) {
            pool.computeIfAbsent(host + ":" + port, k -> new LinkedBlockingQueue<>()).offer(channel);
        }
    }

    /** Druid's {@code go()}: blocks for a channel, then completes asynchronously. */
    public CompletableFuture<Result> go(HttpMethod method, URL url, Map<String, String> headers, byte[] content) {
        String host = url.getHost();
        int port = url.getPort() == -1 ? url.getDefaultPort() : url.getPort();
        ChannelFuture channelFuture = take(host, port).awaitUninterruptibly();
        CompletableFuture<Result> result = new CompletableFuture<>();
        if (!channelFuture.isSuccess()) {
            result.completeExceptionally(new ChannelException("Faulty channel in resource pool", channelFuture.getCause()));
            return result;
        }
        Channel channel = channelFuture.getChannel();
        channel.setReadable(true);
        String file = url.getFile().isEmpty() ? "/" : url.getFile();
        HttpRequest request = new DefaultHttpRequest(HttpVersion.HTTP_1_1, method, file);
        // the static helpers work on every Netty 3 (HttpMessage#headers() only exists since 3.8)
        HttpHeaders.addHeader(request, HttpHeaders.Names.HOST, host + ":" + port);
        HttpHeaders.setHeader(request, HttpHeaders.Names.ACCEPT_ENCODING, "gzip");
        for (Map.Entry<String, String> header : headers.entrySet()) {
            HttpHeaders.addHeader(request, header.getKey(), header.getValue());
        }
        if (content != null) {
            request.setContent(org.jboss.netty.buffer.ChannelBuffers.wrappedBuffer(content));
            HttpHeaders.setHeader(request, HttpHeaders.Names.CONTENT_LENGTH, content.length);
        }
        AtomicBoolean failed = new AtomicBoolean();
        channel.getPipeline().addLast("last-handler", new SimpleChannelUpstreamHandler() {
            private int status;
            private int chunks;
            private final ByteArrayOutputStream body = new ByteArrayOutputStream();

            @Override
            public void messageReceived(ChannelHandlerContext ctx, MessageEvent e) {
                Object msg = e.getMessage();
                if (failed.get()) {
                    return;
                }
                if (msg instanceof HttpResponse) {
                    HttpResponse response = (HttpResponse) msg;
                    status = response.getStatus().getCode();
                    append(response.getContent());
                    if (!response.isChunked()) {
                        finish();
                    }
                } else if (msg instanceof HttpChunk) {
                    HttpChunk chunk = (HttpChunk) msg;
                    if (chunk.isLast()) {
                        finish();
                    } else {
                        chunks++;
                        append(chunk.getContent());
                    }
                }
            }

            private void append(ChannelBuffer buffer) {
                byte[] bytes = new byte[buffer.readableBytes()];
                buffer.getBytes(buffer.readerIndex(), bytes);
                body.write(bytes, 0, bytes.length);
            }

            private void finish() {
                channel.getPipeline().remove("last-handler");
                channel.setReadable(true);
                giveBack(channel, host, port);
                result.complete(new Result(status, body.toString(), chunks, channel.getId()));
            }

            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, ExceptionEvent event) {
                fail(event.getCause());
            }

            @Override
            public void channelDisconnected(ChannelHandlerContext ctx, ChannelStateEvent event) {
                fail(new ChannelException("Channel disconnected"));
            }

            private void fail(Throwable t) {
                if (!failed.compareAndSet(false, true)) {
                    return;
                }
                result.completeExceptionally(t);
                channel.close();
            }
        });
        channel.write(request).addListener(future -> {
            if (!future.isSuccess()) {
                channel.close();
                result.completeExceptionally(new ChannelException("Failed to write request to channel", future.getCause()));
            }
        });
        return result;
    }

    /**
     * Writes several requests on one fresh connection before any response arrives (HTTP/1.1
     * pipelining, which Druid does not do) and collects the responses in order.
     */
    public CompletableFuture<List<Result>> pipelined(String host, int port, List<String> files,
                                                     List<Map<String, String>> headers) {
        Channel channel = bootstrap.connect(new InetSocketAddress(host, port)).awaitUninterruptibly().getChannel();
        CompletableFuture<List<Result>> all = new CompletableFuture<>();
        List<Result> results = new java.util.concurrent.CopyOnWriteArrayList<>();
        channel.getPipeline().addLast("pipelined", new SimpleChannelUpstreamHandler() {
            @Override
            public void messageReceived(ChannelHandlerContext ctx, MessageEvent e) {
                Object msg = e.getMessage();
                if (msg instanceof HttpResponse && !((HttpResponse) msg).isChunked()) {
                    HttpResponse response = (HttpResponse) msg;
                    results.add(new Result(response.getStatus().getCode(),
                            response.getContent().toString(java.nio.charset.StandardCharsets.UTF_8), 0, channel.getId()));
                    if (results.size() == files.size()) {
                        all.complete(results);
                        channel.close();
                    }
                }
            }

            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, ExceptionEvent event) {
                all.completeExceptionally(event.getCause());
                channel.close();
            }
        });
        for (int i = 0; i < files.size(); i++) {
            HttpRequest request = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, files.get(i));
            HttpHeaders.addHeader(request, HttpHeaders.Names.HOST, host + ":" + port);
            for (Map.Entry<String, String> header : headers.get(i).entrySet()) {
                HttpHeaders.addHeader(request, header.getKey(), header.getValue());
            }
            channel.write(request);
        }
        return all;
    }

    @Override
    public void close() {
        for (BlockingQueue<Channel> idle : pool.values()) {
            for (Channel channel : idle) {
                channel.close().awaitUninterruptibly();
            }
        }
        bootstrap.releaseExternalResources();
    }
}
