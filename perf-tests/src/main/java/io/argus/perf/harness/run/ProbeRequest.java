package io.argus.perf.harness.run;

import io.argus.perf.harness.http.Http;
import io.argus.perf.harness.http.RequestSpec;

import java.util.concurrent.ThreadLocalRandom;

/**
 * One probe of a process's readiness endpoint that carries a sampled W3C {@code traceparent} of its
 * own, so that the collector can say whether this very request was traced: Argus honours a sampled
 * caller at any sampling rate, and OpenTelemetry's default parent-based sampler does too.
 *
 * @param traceId      32 hex digits
 * @param sentNanos    {@link System#nanoTime()} just before the request was sent
 * @param answeredNanos when the status line arrived
 * @param status       the HTTP status, or -1 when nothing answered (refused, reset, timed out)
 */
public record ProbeRequest(String traceId, long sentNanos, long answeredNanos, int status) {

    public boolean answered() {
        return status > 0;
    }

    /** Sends one probe over a fresh socket (see {@link Http#probe}). */
    public static ProbeRequest send(RequestSpec spec, int timeoutMillis) {
        return send(spec, timeoutMillis, timeoutMillis);
    }

    /** @param readTimeoutMillis how long an accepted request may take to answer */
    public static ProbeRequest send(RequestSpec spec, int connectTimeoutMillis, int readTimeoutMillis) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        // never all zeros (invalid in W3C trace context)
        String traceId = String.format("%016x%016x", random.nextLong() | 1L << 62, random.nextLong());
        String spanId = String.format("%016x", random.nextLong() | 1L << 62);
        long sent = System.nanoTime();
        int status = Http.probe(spec, connectTimeoutMillis, readTimeoutMillis, "00-" + traceId + "-" + spanId + "-01");
        return new ProbeRequest(traceId, sent, System.nanoTime(), status);
    }
}
