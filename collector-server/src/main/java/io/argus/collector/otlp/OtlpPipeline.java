package io.argus.collector.otlp;

import io.argus.collector.HttpLimits;
import io.argus.collector.Listeners;
import io.argus.collector.ingest.AgentRegistry;
import io.argus.collector.ingest.ClockWindow;
import io.argus.collector.security.HttpAuthenticator;
import io.argus.collector.storage.IngestSink;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.channel.Channel;
import io.netty.handler.codec.http.HttpContentDecompressor;

/**
 * The handlers of an OTLP/HTTP connection, in order, one job each (after TLS, which the server adds): read timeout,
 * HTTP codec and credential check, request filter (path, POST, content type, encoding, declared size),
 * decompression, body aggregation (cap after decompression), protobuf decoding, routing (mapping, storage, answer),
 * error answers. The server and the decoder's fuzz test build connections alike.
 */
final class OtlpPipeline {
    private final int maxBodyBytes;
    private final IngestSink sink;
    private final AgentRegistry registry;
    private final HttpLimits limits;
    private final ClockWindow window;
    private final HttpAuthenticator auth;
    private final OtlpMetrics metrics;
    private final OtlpDecoder decoder = new OtlpDecoder();
    private final OtlpErrorHandler errors;
    private final MetricMapper metricMapper = new MetricMapper();

    /** {@code auth}: {@code null} when no credential is required. */
    OtlpPipeline(int maxBodyBytes, IngestSink sink, AgentRegistry registry, MeterRegistry meters, HttpLimits limits,
                 ClockWindow window, HttpAuthenticator auth) {
        this.maxBodyBytes = maxBodyBytes;
        this.sink = sink;
        this.registry = registry;
        this.limits = limits;
        this.window = window;
        this.auth = auth;
        this.metrics = new OtlpMetrics(meters);
        this.errors = new OtlpErrorHandler(metrics, maxBodyBytes);
    }

    void install(Channel ch) {
        Listeners.httpFront(ch.pipeline(), limits, auth);
        ch.pipeline()
                .addLast("filter", new OtlpRequestFilter(maxBodyBytes, limits))
                .addLast("decompress", new HttpContentDecompressor(false, maxBodyBytes))
                .addLast("aggregator", new OtlpBodyAggregator(maxBodyBytes))
                .addLast("protobuf", decoder)
                .addLast("router", new OtlpRouter(sink, registry, metricMapper, metrics, window,
                        limits.otlpStoreWait().toMillis()))
                .addLast("errors", errors);
    }
}
