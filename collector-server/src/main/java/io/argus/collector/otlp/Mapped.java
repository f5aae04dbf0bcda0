package io.argus.collector.otlp;

import io.argus.collector.storage.Source;
import io.argus.protocol.MetricBatch;
import io.argus.protocol.SpanBatch;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What one OTLP request turned into: batches to store per source, who sent them and what was refused. */
final class Mapped {
    /** One batch for the store: either spans or metrics. */
    record Offer(Source source, SpanBatch spans, MetricBatch metrics) {
    }

    final List<Offer> offers = new ArrayList<>();
    /** Senders of the request, with the number of spans each sent. */
    final Map<OtlpSources.Sender, Integer> senders = new LinkedHashMap<>();
    /** Spans or data points stored, or turned into stored rows. */
    int accepted;
    /** Data points of metrics that map to nothing the collector stores. */
    int ignored;
    /** Spans or data points refused (partial success). */
    long rejected;
    /** Why the first refused item was refused. */
    String error;

    void reject(String why) {
        rejected++;
        if (error == null) {
            error = why;
        }
    }

    /** The partial-success message: the first reason and how many were refused in all. */
    String errorMessage() {
        return error == null ? "" : rejected + " refused; first: " + error;
    }
}
