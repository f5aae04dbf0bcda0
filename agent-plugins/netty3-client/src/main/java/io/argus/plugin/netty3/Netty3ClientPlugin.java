package io.argus.plugin.netty3;

import io.argus.core.plugin.ArgusPlugin;
import io.argus.core.plugin.Probes;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * Client spans, W3C trace context propagation and HTTP client metrics for Netty 3
 * ({@code org.jboss.netty}) HTTP clients built on {@code HttpClientCodec}, the codec Apache Druid's
 * {@code NettyHttpClient} puts in every connection's pipeline.
 *
 * <p>A request is written on the caller's thread and its response is decoded on a Netty I/O thread,
 * so everything that must survive from one to the other lives in the connection's codec (one per
 * connection), in an object field: its {@link PendingCalls}, a FIFO of the requests written on that
 * connection and not yet answered (start time, method, host, span). They are allocated once per
 * connection; requests on a kept-alive connection reuse them.
 * <ul>
 *   <li>{@code HttpClientCodec.handleDownstream}: an {@code HttpRequest} is about to be encoded, on
 *       the thread that wrote it. Starts the client span under that thread's current span, injects
 *       {@code traceparent}/{@code tracestate} into the request's headers and queues the request.</li>
 *   <li>{@code HttpMessageDecoder.decode}, which {@code HttpClientCodec}'s decoder calls: returns
 *       each decoded response part. A complete response, or the last chunk of one whose body came
 *       in chunks, completes the oldest queued request (1xx interim responses other than 101 are
 *       skipped).</li>
 *   <li>{@code HttpClientCodec.handleUpstream}: an exception event that reaches the codec, or the
 *       channel's close, ends every request still queued on the connection, as failed.</li>
 * </ul>
 */
public final class Netty3ClientPlugin implements ArgusPlugin {

    static final String CODEC = "org.jboss.netty.handler.codec.http.HttpClientCodec";
    static final String MESSAGE_DECODER = "org.jboss.netty.handler.codec.http.HttpMessageDecoder";
    private static final String CONTEXT = "org.jboss.netty.channel.ChannelHandlerContext";
    private static final String EVENT = "org.jboss.netty.channel.ChannelEvent";
    private static final String ADVICE = "io.argus.plugin.netty3.";
    private static final String PENDING_CALLS = ADVICE + "PendingCalls";

    @Override
    public String name() {
        return "netty3-client";
    }

    @Override
    public void instrument(Probes probes) {
        probes.field(CODEC, PendingCalls.FIELD);

        probes.type(CODEC)
                .helpers(PENDING_CALLS, ADVICE + "RequestHeaders", ADVICE + "TracedCall")
                .advise(named("handleDownstream").and(takesArguments(2))
                                .and(takesArgument(0, named(CONTEXT))).and(takesArgument(1, named(EVENT))),
                        ADVICE + "RequestAdvice")
                .advise(named("handleUpstream").and(takesArguments(2))
                                .and(takesArgument(0, named(CONTEXT))).and(takesArgument(1, named(EVENT))),
                        ADVICE + "UpstreamAdvice");
        // the decoder of every HTTP message (HttpClientCodec's decoder calls it); the advice acts
        // only for response decoders of codecs that have pending calls
        probes.type(MESSAGE_DECODER).helpers(PENDING_CALLS)
                .advise(named("decode").and(takesArguments(4))
                                .and(takesArgument(0, named(CONTEXT)))
                                .and(takesArgument(2, named("org.jboss.netty.buffer.ChannelBuffer")))
                                .and(takesArgument(3, named(MESSAGE_DECODER + "$State"))),
                        ADVICE + "ResponseAdvice");
    }
}
