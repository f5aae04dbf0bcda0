package io.argus.collector.otlp;

import io.argus.collector.net.PeerAddress;
import io.argus.collector.RateLimitedLog;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.timeout.ReadTimeoutException;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.util.logging.Level;

/**
 * Last stage of an OTLP/gRPC stream, and of the connection: answers a refused call with its gRPC status, counts it
 * in {@code argus.collector.otlp.grpc.rejected} and logs one WARN line with the reason and the client (at most one
 * per reason every 10 s). On the connection it counts what the HTTP/2 codec refused (the codec then sends GOAWAY and
 * closes that connection only).
 */
@ChannelHandler.Sharable
final class GrpcErrorHandler extends ChannelInboundHandlerAdapter {
    private final GrpcMetrics metrics;
    private final RateLimitedLog warnings = new RateLimitedLog(OtlpErrorHandler.LOG,
            OtlpErrorHandler.LOG_INTERVAL_NANOS);

    GrpcErrorHandler(GrpcMetrics metrics) {
        this.metrics = metrics;
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        boolean stream = ctx.channel() instanceof Http2StreamChannel;
        String remote = PeerAddress.of(stream ? ctx.channel().parent() : ctx.channel());
        if (cause instanceof IOException || cause instanceof ReadTimeoutException) {
            OtlpErrorHandler.LOG.log(Level.FINE, "OTLP/gRPC connection from " + remote + " failed", cause);
            ctx.close();
            return;
        }
        if (!stream) {
            // the HTTP/2 codec found bytes that break the protocol; it answers GOAWAY and closes
            metrics.rejected(GrpcRejectReason.PROTOCOL_ERROR);
            warnings.warn(GrpcRejectReason.PROTOCOL_ERROR, "closed OTLP/gRPC connection from " + remote + ": "
                    + (cause instanceof Http2Exception ? "" : cause.getClass().getSimpleName() + " ")
                    + oneLine(cause.getMessage()));
            return;
        }
        GrpcRejectReason reason;
        String detail;
        if (cause instanceof GrpcRejectedException r) {
            reason = r.reason();
            detail = r.getMessage();
        } else {
            reason = GrpcRejectReason.INTERNAL_ERROR;
            detail = "internal error";
            OtlpErrorHandler.LOG.log(Level.WARNING, "unexpected failure on an OTLP/gRPC call from " + remote, cause);
        }
        metrics.rejected(reason);
        warnings.warn(reason, "rejected OTLP/gRPC call from " + remote + ": " + reason.label() + " (grpc-status "
                + reason.grpcCode() + ") - " + oneLine(detail));
        if (ctx.channel().isActive()) {
            GrpcResponses.error(ctx, reason, detail);
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ReferenceCountUtil.release(msg); // end of the line
    }

    private static String oneLine(String s) {
        String flat = String.valueOf(s).replace('\n', ' ').replace('\r', ' ');
        return flat.length() > 300 ? flat.substring(0, 300) + "..." : flat;
    }
}
