package io.argus.collector.otlp;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http2.DefaultHttp2WindowUpdateFrame;
import io.netty.handler.codec.http2.Http2CodecUtil;

/**
 * Opens the connection's HTTP/2 flow-control window to {@link #WINDOW_BYTES} as the connection starts (the stream
 * windows are opened by the initial settings), so that an exporter sends a whole export request without waiting
 * for window updates every 64 KiB: fewer wake-ups of the event loop per request. Then it leaves the pipeline.
 */
final class GrpcConnectionWindow extends ChannelInboundHandlerAdapter {
    /** Per stream and per connection; larger than most export requests, far below the message cap's worst case. */
    static final int WINDOW_BYTES = 1 << 20;

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        ctx.writeAndFlush(new DefaultHttp2WindowUpdateFrame(WINDOW_BYTES - Http2CodecUtil.DEFAULT_WINDOW_SIZE));
        ctx.pipeline().remove(this);
        ctx.fireChannelActive();
    }
}
