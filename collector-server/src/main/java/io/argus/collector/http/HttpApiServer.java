package io.argus.collector.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.argus.collector.alerting.Alerting;
import io.argus.collector.storage.AgentDirectory;
import io.argus.collector.storage.IngestSink;
import io.argus.collector.storage.QueryStore;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.argus.collector.HttpLimits;
import io.argus.collector.Listeners;
import io.argus.collector.security.HttpAuthenticator;
import io.argus.collector.security.HttpCredentials;
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
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** HTTP server for the JSON query API, the web UI and the collector's Prometheus metrics. */
public final class HttpApiServer implements AutoCloseable {
    private final Channel serverChannel;
    private final ChannelGroup channels;
    private final ExecutorService queries;

    private HttpApiServer(Channel serverChannel, ChannelGroup channels, ExecutorService queries) {
        this.serverChannel = serverChannel;
        this.channels = channels;
        this.queries = queries;
    }

    /**
     * {@code storage} {@code null}: an ingest-only collector, whose data endpoints answer 503; {@code sink}
     * {@code null}: a query node, which ingests nothing; {@code alerting} {@code null}: no rules file, the alert
     * endpoints answer an empty list.
     */
    public static HttpApiServer start(String bind, int port, EventLoopGroup boss, EventLoopGroup workers,
                                      QueryStore storage, IngestSink sink, AgentDirectory registry, Alerting alerting,
                                      PrometheusMeterRegistry meters, ServerTls tls, HttpCredentials credentials,
                                      HttpLimits limits) throws InterruptedException {
        AtomicInteger threadNo = new AtomicInteger();
        ThreadPoolExecutor queries = new ThreadPoolExecutor(2, 2, 60, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(limits.maxQueuedQueries()), r -> {
                    Thread t = new Thread(r, "argus-query-" + threadNo.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        ChannelGroup channels = new DefaultChannelGroup("argus-http", GlobalEventExecutor.INSTANCE);
        ObjectMapper json = new ObjectMapper();
        HttpApiHandler handler = new HttpApiHandler(storage, sink, registry, alerting, meters, queries, json,
                new StaticFiles(), Clock.systemUTC(), limits);
        HttpAuthenticator auth = !credentials.required() ? null : new HttpAuthenticator(credentials, "http", meters,
                HttpApiHandler.JSON, message -> HttpApiHandler.errorJson(json, 401, message));
        ServerBootstrap b = Listeners.bootstrap(boss, workers, 256, channels, tls, "http", ch -> {
            Listeners.httpFront(ch.pipeline(), limits, auth);
            ch.pipeline()
                    .addLast("aggregator", new HttpObjectAggregator(64 * 1024))
                    .addLast("api", handler);
        });
        try {
            Channel ch = b.bind(bind, port).sync().channel();
            channels.add(ch);
            return new HttpApiServer(ch, channels, queries);
        } catch (RuntimeException | InterruptedException e) {
            queries.shutdownNow();
            throw e;
        }
    }

    public int port() {
        return ((InetSocketAddress) serverChannel.localAddress()).getPort();
    }

    @Override
    public void close() {
        channels.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        queries.shutdown();
        try {
            if (!queries.awaitTermination(10, TimeUnit.SECONDS)) {
                queries.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            queries.shutdownNow();
        }
    }
}
