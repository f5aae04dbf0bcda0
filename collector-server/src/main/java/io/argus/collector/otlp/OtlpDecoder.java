package io.argus.collector.otlp;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageDecoder;
import io.netty.handler.codec.http.FullHttpRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import java.util.List;

/** Turns a whole request body into an {@link ExportTraceServiceRequest} or {@link ExportMetricsServiceRequest}. */
@ChannelHandler.Sharable
final class OtlpDecoder extends MessageToMessageDecoder<FullHttpRequest> {

    @Override
    protected void decode(ChannelHandlerContext ctx, FullHttpRequest req, List<Object> out) {
        Signal signal = Signal.of(req.uri());
        try {
            CodedInputStream in = CodedInputStream.newInstance(req.content().nioBuffer());
            out.add(switch (signal) {
                case TRACES -> ExportTraceServiceRequest.parseFrom(in);
                case METRICS -> ExportMetricsServiceRequest.parseFrom(in);
            });
        } catch (InvalidProtocolBufferException e) {
            throw new OtlpRejectedException(OtlpRejectReason.BAD_PROTOBUF,
                    "body is not a valid " + signal.path() + " export request: " + e.getMessage());
        } catch (java.io.IOException e) {
            throw new OtlpRejectedException(OtlpRejectReason.BAD_PROTOBUF, String.valueOf(e.getMessage()));
        }
    }
}
