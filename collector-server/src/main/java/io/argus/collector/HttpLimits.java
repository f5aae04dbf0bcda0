package io.argus.collector;

import java.time.Duration;
import java.util.Objects;

/**
 * Bounds of the HTTP listeners (the API and UI port, and OTLP/HTTP). Each has a command-line flag (see
 * {@code docs/collector.md}, "Limits and timeouts").
 *
 * @param readTimeout         a connection that sends nothing for this long is closed ({@code --http-read-timeout})
 * @param maxRequestLineBytes longest request line (method, URL, version); longer ones get 414
 *                            ({@code --http-max-request-line})
 * @param maxHeaderBytes      largest header block; larger ones get 431 ({@code --http-max-header-bytes})
 * @param otlpStoreWait       how long an OTLP request waits for room in a full storage queue before its answer is
 *                            503 ({@code --otlp-store-wait})
 * @param maxQueuedQueries    API queries waiting for a query thread; beyond that 503 ({@code --max-queued-queries})
 */
public record HttpLimits(Duration readTimeout, int maxRequestLineBytes, int maxHeaderBytes, Duration otlpStoreWait,
                         int maxQueuedQueries) {

    public static final Duration DEFAULT_READ_TIMEOUT = Duration.ofSeconds(120);
    public static final int DEFAULT_MAX_REQUEST_LINE_BYTES = 4096;
    public static final int DEFAULT_MAX_HEADER_BYTES = 8192;
    public static final Duration DEFAULT_OTLP_STORE_WAIT = Duration.ofSeconds(10);
    public static final int DEFAULT_MAX_QUEUED_QUERIES = 256;

    public static final HttpLimits DEFAULTS = new HttpLimits(DEFAULT_READ_TIMEOUT, DEFAULT_MAX_REQUEST_LINE_BYTES,
            DEFAULT_MAX_HEADER_BYTES, DEFAULT_OTLP_STORE_WAIT, DEFAULT_MAX_QUEUED_QUERIES);

    public HttpLimits {
        Objects.requireNonNull(readTimeout, "readTimeout");
        Objects.requireNonNull(otlpStoreWait, "otlpStoreWait");
        if (readTimeout.isNegative() || readTimeout.isZero() || otlpStoreWait.isNegative()
                || otlpStoreWait.isZero()) {
            throw new IllegalArgumentException("HTTP timeouts must be positive");
        }
        if (maxRequestLineBytes < 256 || maxHeaderBytes < 1024) {
            throw new IllegalArgumentException("the request line must allow at least 256 bytes and the headers 1024");
        }
        if (maxQueuedQueries < 1) {
            throw new IllegalArgumentException("maxQueuedQueries must be positive, got " + maxQueuedQueries);
        }
    }

    public HttpLimits withReadTimeout(Duration timeout) {
        return new HttpLimits(timeout, maxRequestLineBytes, maxHeaderBytes, otlpStoreWait, maxQueuedQueries);
    }

    public HttpLimits withRequestSizes(int requestLine, int headers) {
        return new HttpLimits(readTimeout, requestLine, headers, otlpStoreWait, maxQueuedQueries);
    }

    public HttpLimits withOtlpStoreWait(Duration wait) {
        return new HttpLimits(readTimeout, maxRequestLineBytes, maxHeaderBytes, wait, maxQueuedQueries);
    }

    public HttpLimits withMaxQueuedQueries(int queued) {
        return new HttpLimits(readTimeout, maxRequestLineBytes, maxHeaderBytes, otlpStoreWait, queued);
    }
}
