package io.argus.core.export;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.WireFormat;
import io.argus.bridge.Tags;
import io.argus.core.trace.RecordedSpan;
import io.argus.protocol.Frame;
import io.argus.protocol.Span;
import io.argus.protocol.SpanBatch;
import io.argus.protocol.Tag;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a span batch frame straight from {@link RecordedSpan}s with {@link CodedOutputStream},
 * without building protobuf message objects (the collector decodes it with the generated classes).
 */
final class SpanEncoder {

    private final List<String[]> tagScratch = new ArrayList<String[]>();
    private final List<String> nameScratch = new ArrayList<String>();
    private int[] sizes = new int[64];

    /** A whole frame: 4-byte big-endian length, then the serialized {@code Frame}. */
    byte[] encode(List<RecordedSpan> spans) throws IOException {
        int count = spans.size();
        if (sizes.length < count) {
            sizes = new int[Math.max(count, sizes.length * 2)];
        }
        tagScratch.clear();
        nameScratch.clear();
        int batchSize = 0;
        for (int i = 0; i < count; i++) {
            RecordedSpan span = spans.get(i);
            String name = span.displayName();
            String[] tags = tagsOf(span);
            nameScratch.add(name);
            tagScratch.add(tags);
            int size = spanSize(span, name, tags);
            sizes[i] = size;
            batchSize += CodedOutputStream.computeTagSize(SpanBatch.SPANS_FIELD_NUMBER)
                    + CodedOutputStream.computeUInt32SizeNoTag(size) + size;
        }
        int frameSize = CodedOutputStream.computeTagSize(Frame.SPANS_FIELD_NUMBER)
                + CodedOutputStream.computeUInt32SizeNoTag(batchSize) + batchSize;
        byte[] out = new byte[4 + frameSize];
        writeLength(out, frameSize);
        CodedOutputStream cos = CodedOutputStream.newInstance(out, 4, frameSize);
        cos.writeTag(Frame.SPANS_FIELD_NUMBER, WireFormat.WIRETYPE_LENGTH_DELIMITED);
        cos.writeUInt32NoTag(batchSize);
        for (int i = 0; i < count; i++) {
            cos.writeTag(SpanBatch.SPANS_FIELD_NUMBER, WireFormat.WIRETYPE_LENGTH_DELIMITED);
            cos.writeUInt32NoTag(sizes[i]);
            writeSpan(cos, spans.get(i), nameScratch.get(i), tagScratch.get(i));
        }
        cos.checkNoSpaceLeft();
        return out;
    }

    static void writeLength(byte[] out, int length) {
        out[0] = (byte) (length >>> 24);
        out[1] = (byte) (length >>> 16);
        out[2] = (byte) (length >>> 8);
        out[3] = (byte) length;
    }

    private static String[] tagsOf(RecordedSpan span) {
        int extras = span.extraTagCount();
        String[] tags = new String[(5 + extras) * 2];
        int n = 0;
        if (span.method() != null) {
            tags[n++] = Tags.HTTP_METHOD;
            tags[n++] = span.method();
        }
        if (span.target() != null) {
            tags[n++] = span.kind() == RecordedSpan.KIND_CLIENT ? Tags.HTTP_URL : Tags.HTTP_PATH;
            tags[n++] = span.target();
        }
        if (span.httpStatus() >= 0) {
            tags[n++] = Tags.HTTP_STATUS_CODE;
            tags[n++] = Integer.toString(span.httpStatus());
        }
        if (span.host() != null) {
            tags[n++] = Tags.PEER;
            tags[n++] = span.port() > 0 ? span.host() + ':' + span.port() : span.host();
        }
        if (span.error() != null) {
            tags[n++] = Tags.ERROR;
            tags[n++] = span.error();
        }
        for (int i = 0; i < extras; i++) {
            tags[n++] = span.extraTagKey(i);
            tags[n++] = span.extraTagValue(i);
        }
        return tags;
    }

    private static int tagSize(String key, String value) {
        return CodedOutputStream.computeStringSize(Tag.KEY_FIELD_NUMBER, key)
                + CodedOutputStream.computeStringSize(Tag.VALUE_FIELD_NUMBER, value);
    }

    private static int spanSize(RecordedSpan s, String name, String[] tags) {
        int size = CodedOutputStream.computeFixed64Size(Span.TRACE_ID_HIGH_FIELD_NUMBER, s.traceIdHigh())
                + CodedOutputStream.computeFixed64Size(Span.TRACE_ID_LOW_FIELD_NUMBER, s.traceIdLow())
                + CodedOutputStream.computeFixed64Size(Span.SPAN_ID_FIELD_NUMBER, s.spanId())
                + CodedOutputStream.computeEnumSize(Span.KIND_FIELD_NUMBER, s.kind())
                + CodedOutputStream.computeStringSize(Span.NAME_FIELD_NUMBER, name)
                + CodedOutputStream.computeInt64Size(Span.START_EPOCH_NANOS_FIELD_NUMBER, s.startEpochNanos())
                + CodedOutputStream.computeInt64Size(Span.DURATION_NANOS_FIELD_NUMBER, s.durationNanos())
                + CodedOutputStream.computeEnumSize(Span.STATUS_FIELD_NUMBER, s.status());
        if (s.parentSpanId() != 0) {
            size += CodedOutputStream.computeFixed64Size(Span.PARENT_SPAN_ID_FIELD_NUMBER, s.parentSpanId());
        }
        for (int i = 0; i < tags.length && tags[i] != null; i += 2) {
            int tag = tagSize(tags[i], tags[i + 1]);
            size += CodedOutputStream.computeTagSize(Span.TAGS_FIELD_NUMBER) + CodedOutputStream.computeUInt32SizeNoTag(tag) + tag;
        }
        return size;
    }

    private static void writeSpan(CodedOutputStream cos, RecordedSpan s, String name, String[] tags) throws IOException {
        cos.writeFixed64(Span.TRACE_ID_HIGH_FIELD_NUMBER, s.traceIdHigh());
        cos.writeFixed64(Span.TRACE_ID_LOW_FIELD_NUMBER, s.traceIdLow());
        cos.writeFixed64(Span.SPAN_ID_FIELD_NUMBER, s.spanId());
        if (s.parentSpanId() != 0) {
            cos.writeFixed64(Span.PARENT_SPAN_ID_FIELD_NUMBER, s.parentSpanId());
        }
        cos.writeEnum(Span.KIND_FIELD_NUMBER, s.kind());
        cos.writeString(Span.NAME_FIELD_NUMBER, name);
        cos.writeInt64(Span.START_EPOCH_NANOS_FIELD_NUMBER, s.startEpochNanos());
        cos.writeInt64(Span.DURATION_NANOS_FIELD_NUMBER, s.durationNanos());
        cos.writeEnum(Span.STATUS_FIELD_NUMBER, s.status());
        for (int i = 0; i < tags.length && tags[i] != null; i += 2) {
            cos.writeTag(Span.TAGS_FIELD_NUMBER, WireFormat.WIRETYPE_LENGTH_DELIMITED);
            cos.writeUInt32NoTag(tagSize(tags[i], tags[i + 1]));
            cos.writeString(Tag.KEY_FIELD_NUMBER, tags[i]);
            cos.writeString(Tag.VALUE_FIELD_NUMBER, tags[i + 1]);
        }
    }
}
