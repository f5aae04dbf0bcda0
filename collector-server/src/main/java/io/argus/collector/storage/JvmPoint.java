package io.argus.collector.storage;

import com.fasterxml.jackson.annotation.JsonFormat;

/** One gauge sample; serialized as the JSON pair {@code [tsMs, value]}. */
@JsonFormat(shape = JsonFormat.Shape.ARRAY)
public record JvmPoint(long tsMs, double value) {
}
