package io.argus.collector.security;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;

/**
 * Lets through requests that carry an accepted credential; answers the others with 401 and drops their body, so
 * nothing after this stage (aggregation, decompression, routing) sees an unauthenticated byte. One instance per
 * connection.
 */
final class HttpAuthHandler extends ChannelInboundHandlerAdapter {
    private final HttpAuthenticator authenticator;
    private boolean discarding;

    HttpAuthHandler(HttpAuthenticator authenticator) {
        this.authenticator = authenticator;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof HttpRequest req) {
            // a head that failed to decode goes on: the stages after this one answer it with 400
            if (!req.decoderResult().isSuccess() || authenticator.accepts(req)) {
                discarding = false;
                ctx.fireChannelRead(msg);
                return;
            }
            discarding = !(msg instanceof LastHttpContent);
            try {
                authenticator.refuse(ctx, req);
            } finally {
                ReferenceCountUtil.release(msg);
            }
        } else if (discarding && msg instanceof HttpContent) {
            discarding = !(msg instanceof LastHttpContent);
            ReferenceCountUtil.release(msg);
        } else {
            ctx.fireChannelRead(msg);
        }
    }
}
