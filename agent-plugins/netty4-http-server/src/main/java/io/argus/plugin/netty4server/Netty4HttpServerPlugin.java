package io.argus.plugin.netty4server;

import io.argus.core.plugin.ArgusPlugin;
import io.argus.core.plugin.Probes;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * Server spans, inbound trace context and HTTP server metrics for Netty 4.1/4.2 HTTP/1.x servers:
 * pipelines with {@code HttpServerCodec}, or {@code HttpRequestDecoder} and
 * {@code HttpResponseEncoder}, followed by the application's handlers (with or without
 * {@code HttpObjectAggregator}).
 *
 * <p>All probes match exact class names. A request and its response meet on the channel's event
 * loop, so the per-connection state lives on the channel, in an object field declared on the
 * transports' socket channel classes: its {@link UnansweredRequests}, a FIFO of the requests received
 * and not yet answered (start time, method, path, span), since HTTP/1.1 answers in order even when
 * the client pipelines.
 * <ul>
 *   <li>{@code HttpObjectDecoder.decode}: on a request decoder, each decoded {@code HttpRequest}
 *       starts a server span (joining an inbound {@code traceparent}/{@code b3}) that is current
 *       while the decoded messages go to the handlers behind the codec, and queues the request.
 *       Decode calls for a request's body make its span current again.</li>
 *   <li>{@code HttpObjectEncoder.encode}: on a response encoder, the {@code HttpResponse} gives the
 *       status and the {@code LastHttpContent} (or a {@code FullHttpResponse}) completes the oldest
 *       queued request. 1xx interim responses other than 101 are skipped.</li>
 *   <li>{@code ByteToMessageDecoder.channelRead/userEventTriggered/channelInactive}: restore the
 *       context the event loop had before the event, so a span never outlives the inbound event
 *       that made it current; {@code channelInactive} also ends requests left unanswered by a
 *       closed connection (status 0). This advice refers to no HTTP class: it is safe in
 *       applications whose Netty has no HTTP codec.</li>
 * </ul>
 */
public final class Netty4HttpServerPlugin implements ArgusPlugin {

    static final String DECODER = "io.netty.handler.codec.http.HttpObjectDecoder";
    static final String ENCODER = "io.netty.handler.codec.http.HttpObjectEncoder";
    static final String BYTE_DECODER = "io.netty.handler.codec.ByteToMessageDecoder";
    private static final String CONTEXT = "io.netty.channel.ChannelHandlerContext";
    private static final String ADVICE = "io.argus.plugin.netty4server.";
    private static final String UNANSWERED = ADVICE + "UnansweredRequests";
    private static final String UNANSWERED_ENTRY = UNANSWERED + "$Request";
    /**
     * The server-side channel classes of Netty's transports (4.2 adds io_uring; EmbeddedChannel for
     * tests and benchmarks); any other channel keeps its requests in the agent's weak map.
     */
    private static final String[] CHANNELS = {
            "io.netty.channel.socket.nio.NioSocketChannel",
            "io.netty.channel.epoll.EpollSocketChannel",
            "io.netty.channel.kqueue.KQueueSocketChannel",
            "io.netty.channel.uring.IoUringSocketChannel",
            "io.netty.channel.embedded.EmbeddedChannel",
    };

    @Override
    public String name() {
        return "netty4-http-server";
    }

    @Override
    public void instrument(Probes probes) {
        for (String channel : CHANNELS) {
            probes.field(channel, UnansweredRequests.FIELD);
            probes.field(channel, UnansweredRequests.ROUTE_FIELD);
        }

        probes.type(DECODER).helpers(UNANSWERED, UNANSWERED_ENTRY, ADVICE + "RequestHeaders")
                .advise(named("decode").and(takesArguments(3))
                                .and(takesArgument(0, named(CONTEXT)))
                                .and(takesArgument(1, named("io.netty.buffer.ByteBuf")))
                                .and(takesArgument(2, named("java.util.List"))),
                        ADVICE + "DecodeAdvice");
        probes.type(ENCODER).helpers(UNANSWERED, UNANSWERED_ENTRY)
                .advise(named("encode").and(takesArguments(3))
                                .and(takesArgument(0, named(CONTEXT)))
                                .and(takesArgument(1, named("java.lang.Object")))
                                .and(takesArgument(2, named("java.util.List"))),
                        ADVICE + "EncodeAdvice");
        probes.type(BYTE_DECODER).helpers(UNANSWERED, UNANSWERED_ENTRY)
                .advise(named("channelRead").and(takesArguments(2)).and(takesArgument(0, named(CONTEXT))),
                        ADVICE + "ContextGuardAdvice")
                .advise(named("userEventTriggered").and(takesArguments(2)).and(takesArgument(0, named(CONTEXT))),
                        ADVICE + "ContextGuardAdvice")
                .advise(named("channelInactive").and(takesArguments(1)).and(takesArgument(0, named(CONTEXT))),
                        ADVICE + "ChannelInactiveAdvice");
    }
}
