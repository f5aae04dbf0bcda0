package io.argus.collector.otlp;

import io.argus.collector.ingest.ClockWindow;
import io.argus.protocol.CallMetricKind;
import io.argus.protocol.Span;
import io.argus.protocol.SpanBatch;
import io.argus.protocol.SpanKind;
import io.argus.protocol.SpanStatus;
import io.argus.protocol.Tag;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Status;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * OTLP spans to Argus spans, per resource (= source), plus the call metrics the Argus agent would have sent for
 * them: OTLP traces carry no histograms, so SERVER spans with an HTTP method give server cells (method, route or
 * path, status), CLIENT spans give client cells (method, {@code host:port}) or, with {@code db.system}, database
 * cells. Both the current and the older semantic-convention attribute names are read. Spans with unusable ids or
 * times are refused one by one (partial success).
 */
final class TraceMapper {
    static final long MAX_SPAN_DURATION_NANOS = TimeUnit.DAYS.toNanos(7);
    static final int MAX_SPAN_NAME_CHARS = 1024;
    static final int MAX_TARGET_CHARS = 1024;
    private static final SpanKind[] KINDS = {SpanKind.SPAN_KIND_UNSPECIFIED, SpanKind.SPAN_KIND_INTERNAL,
        SpanKind.SPAN_KIND_SERVER, SpanKind.SPAN_KIND_CLIENT, SpanKind.SPAN_KIND_PRODUCER,
        SpanKind.SPAN_KIND_CONSUMER};

    private TraceMapper() {
    }

    static Mapped map(ExportTraceServiceRequest request, String clientHost, long nowMs, ClockWindow window) {
        Mapped out = new Mapped();
        ClockWindow.SpanBounds bounds = window.spanBounds();
        int outside = 0;
        for (ResourceSpans rs : request.getResourceSpansList()) {
            OtlpSources.Sender sender = OtlpSources.sender(rs.getResource(), clientHost);
            SpanBatch.Builder spans = SpanBatch.newBuilder();
            CallCells calls = new CallCells();
            for (ScopeSpans ss : rs.getScopeSpansList()) {
                String scope = ss.getScope().getName();
                for (io.opentelemetry.proto.trace.v1.Span s : ss.getSpansList()) {
                    String invalid = invalid(s);
                    if (invalid == null && !bounds.contains(s.getStartTimeUnixNano())) {
                        invalid = window.spanOutside(s.getStartTimeUnixNano());
                        outside++;
                    }
                    if (invalid != null) {
                        out.reject("span '" + OtlpRequestFilter.abbreviate(s.getName()) + "' " + invalid);
                        continue;
                    }
                    Span span = span(s, scope);
                    spans.addSpans(span);
                    callMetric(s, span, calls);
                }
            }
            int n = spans.getSpansCount();
            out.senders.merge(sender, n, Integer::sum);
            if (n > 0) {
                out.offers.add(new Mapped.Offer(sender.source(), spans.build(), null));
                out.accepted += n;
            }
            if (!calls.isEmpty()) {
                out.offers.add(new Mapped.Offer(sender.source(), null, calls.batch(nowMs)));
            }
        }
        if (outside > 0) {
            window.countSpans(outside);
        }
        return out;
    }

    private static String invalid(io.opentelemetry.proto.trace.v1.Span s) {
        if (s.getTraceId().size() != 16 || isZero(s.getTraceId().toByteArray())) {
            return "has an invalid trace id (" + s.getTraceId().size() + " bytes, 16 non-zero required)";
        }
        if (s.getSpanId().size() != 8 || isZero(s.getSpanId().toByteArray())) {
            return "has an invalid span id (" + s.getSpanId().size() + " bytes, 8 non-zero required)";
        }
        if (!s.getParentSpanId().isEmpty() && s.getParentSpanId().size() != 8) {
            return "has an invalid parent span id (" + s.getParentSpanId().size() + " bytes)";
        }
        long start = s.getStartTimeUnixNano();
        long end = s.getEndTimeUnixNano();
        if (start <= 0) {
            return "has no start time";
        }
        if (end < start || end - start > MAX_SPAN_DURATION_NANOS) {
            return "has an end time before its start or more than 7 days after it";
        }
        return null;
    }

    private static boolean isZero(byte[] id) {
        for (byte b : id) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }

    private static Span span(io.opentelemetry.proto.trace.v1.Span s, String scope) {
        byte[] trace = s.getTraceId().toByteArray();
        Span.Builder b = Span.newBuilder()
                .setTraceIdHigh(id(trace, 0))
                .setTraceIdLow(id(trace, 8))
                .setSpanId(id(s.getSpanId().toByteArray(), 0))
                .setParentSpanId(s.getParentSpanId().isEmpty() ? 0 : id(s.getParentSpanId().toByteArray(), 0))
                .setKind(kind(s.getKindValue()))
                .setName(cut(s.getName(), MAX_SPAN_NAME_CHARS))
                .setStartEpochNanos(s.getStartTimeUnixNano())
                .setDurationNanos(s.getEndTimeUnixNano() - s.getStartTimeUnixNano())
                .setStatus(status(s.getStatus().getCode()));
        for (KeyValue kv : s.getAttributesList()) {
            b.addTags(Tag.newBuilder().setKey(kv.getKey()).setValue(OtlpValues.text(kv.getValue())));
        }
        if (!s.getStatus().getMessage().isEmpty()) {
            b.addTags(tag("otel.status_description", cut(s.getStatus().getMessage(), OtlpValues.MAX_VALUE_CHARS)));
        }
        if (!scope.isEmpty()) {
            b.addTags(tag("otel.scope.name", cut(scope, MAX_TARGET_CHARS)));
        }
        return b.build();
    }

    private static Tag tag(String key, String value) {
        return Tag.newBuilder().setKey(key).setValue(value).build();
    }

    /** Eight bytes from {@code at}, big-endian, as the wire's 64-bit id. */
    static long id(byte[] bytes, int at) {
        long v = 0;
        for (int i = at; i < at + 8; i++) {
            v = (v << 8) | (bytes[i] & 0xFF);
        }
        return v;
    }

    private static SpanKind kind(int otlp) {
        return otlp >= 0 && otlp < KINDS.length ? KINDS[otlp] : SpanKind.SPAN_KIND_UNSPECIFIED;
    }

    private static SpanStatus status(Status.StatusCode code) {
        return switch (code) {
            case STATUS_CODE_OK -> SpanStatus.SPAN_STATUS_OK;
            case STATUS_CODE_ERROR -> SpanStatus.SPAN_STATUS_ERROR;
            default -> SpanStatus.SPAN_STATUS_UNSET;
        };
    }

    private static void callMetric(io.opentelemetry.proto.trace.v1.Span s, Span span, CallCells calls) {
        List<KeyValue> a = s.getAttributesList();
        boolean failed = span.getStatus() == SpanStatus.SPAN_STATUS_ERROR;
        long nanos = span.getDurationNanos();
        if (span.getKind() == SpanKind.SPAN_KIND_CLIENT) {
            String db = OtlpValues.first(a, "db.system.name", "db.system");
            if (db != null) {
                String op = OtlpValues.first(a, "db.operation.name", "db.operation");
                String ns = OtlpValues.first(a, "db.namespace", "db.name");
                calls.add(CallMetricKind.CALL_METRIC_KIND_DB, op == null ? "OTHER" : cut(op.toUpperCase(Locale.ROOT),
                        OtlpSources.MAX_NAME_CHARS), cut(ns == null ? db : db + ":" + ns, MAX_TARGET_CHARS), 0, nanos,
                        failed);
                return;
            }
        }
        String method = OtlpValues.first(a, "http.request.method", "http.method");
        if (method == null) {
            return;
        }
        method = cut(method, OtlpSources.MAX_NAME_CHARS);
        int status = httpStatus(OtlpValues.first(a, "http.response.status_code", "http.status_code"));
        if (span.getKind() == SpanKind.SPAN_KIND_SERVER) {
            String target = OtlpValues.first(a, "http.route", "url.path");
            if (target == null) {
                String old = OtlpValues.get(a, "http.target");
                target = old == null ? span.getName() : withoutQuery(old);
            }
            calls.add(CallMetricKind.CALL_METRIC_KIND_SERVER, method, cut(target, MAX_TARGET_CHARS), status, nanos,
                    failed || status >= 500);
        } else if (span.getKind() == SpanKind.SPAN_KIND_CLIENT) {
            String target = clientTarget(a);
            if (target != null) {
                calls.add(CallMetricKind.CALL_METRIC_KIND_CLIENT, method, cut(target, MAX_TARGET_CHARS), status, nanos,
                        failed || status >= 400);
            }
        }
    }

    /** {@code host:port} from server.address/port, net.peer.name/port, or the URL. */
    private static String clientTarget(List<KeyValue> a) {
        String host = OtlpValues.first(a, "server.address", "net.peer.name");
        String port = OtlpValues.first(a, "server.port", "net.peer.port");
        if (host == null) {
            String url = OtlpValues.first(a, "url.full", "http.url");
            if (url == null) {
                return null;
            }
            try {
                URI uri = URI.create(url);
                host = uri.getHost();
                if (host == null) {
                    return null;
                }
                port = uri.getPort() > 0 ? Integer.toString(uri.getPort())
                        : "https".equalsIgnoreCase(uri.getScheme()) ? "443" : "80";
            } catch (IllegalArgumentException e) {
                return null;
            }
        }
        return port == null ? host : host + ":" + port;
    }

    private static int httpStatus(String s) {
        if (s == null) {
            return 0;
        }
        try {
            int v = Integer.parseInt(s.strip());
            return v >= 0 && v <= 999 ? v : 0;
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static String withoutQuery(String target) {
        int q = target.indexOf('?');
        return q >= 0 ? target.substring(0, q) : target;
    }

    static String cut(String s, int max) {
        return s.length() > max ? s.substring(0, max) : s;
    }
}
