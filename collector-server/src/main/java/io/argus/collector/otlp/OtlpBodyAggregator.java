package io.argus.collector.otlp;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;

/**
 * Collects a request body up to the cap (after decompression). A larger one, typically chunked or compressed so
 * that its size was not known from the head, is refused with 413 and the connection closes.
 */
final class OtlpBodyAggregator extends HttpObjectAggregator {
    private final int maxBodyBytes;

    OtlpBodyAggregator(int maxBodyBytes) {
        super(maxBodyBytes);
        this.maxBodyBytes = maxBodyBytes;
    }

    @Override
    protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
        ctx.channel().attr(OtlpAttributes.KEEP_ALIVE).set(Boolean.FALSE);
        ctx.fireExceptionCaught(new OtlpRejectedException(OtlpRejectReason.TOO_LARGE,
                "body larger than the limit of " + maxBodyBytes + " bytes"));
    }
}
