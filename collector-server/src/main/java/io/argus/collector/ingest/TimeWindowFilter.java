package io.argus.collector.ingest;

import io.argus.protocol.Frame;
import io.argus.protocol.MetricBatch;
import io.argus.protocol.Span;
import io.argus.protocol.SpanBatch;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.List;

/**
 * Drops what an agent stamped outside the {@link ClockWindow}: spans one by one (the frame goes on with the others),
 * a metric batch as a whole (it goes on empty, so that it is still numbered and acknowledged). A frame without such
 * times passes untouched, so the common case costs a clock read and a loop over start times. Shared by all
 * connections.
 */
@ChannelHandler.Sharable
final class TimeWindowFilter extends ChannelInboundHandlerAdapter {
    private final ClockWindow window;

    TimeWindowFilter(ClockWindow window) {
        this.window = window;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof Frame frame && !IngestAttributes.rejected(ctx.channel())) {
            if (frame.hasSpans()) {
                msg = spans(frame);
            } else if (frame.hasMetrics() && window.metricsOutside(frame.getMetrics().getTimestampMs()) != null) {
                window.countMetricBatch();
                msg = Frame.newBuilder().setMetrics(MetricBatch.newBuilder()
                        .setTimestampMs(frame.getMetrics().getTimestampMs())).build();
            }
        }
        ctx.fireChannelRead(msg);
    }

    private Frame spans(Frame frame) {
        List<Span> spans = frame.getSpans().getSpansList();
        ClockWindow.SpanBounds bounds = window.spanBounds();
        int first = -1;
        for (int i = 0; i < spans.size(); i++) {
            if (!bounds.contains(spans.get(i).getStartEpochNanos())) {
                first = i;
                break;
            }
        }
        if (first < 0) {
            return frame;
        }
        SpanBatch.Builder kept = SpanBatch.newBuilder();
        int dropped = 0;
        for (int i = 0; i < spans.size(); i++) {
            Span s = spans.get(i);
            if (i >= first && !bounds.contains(s.getStartEpochNanos())) {
                dropped++;
            } else {
                kept.addSpans(s);
            }
        }
        window.countSpans(dropped);
        return Frame.newBuilder().setSpans(kept).build();
    }
}
