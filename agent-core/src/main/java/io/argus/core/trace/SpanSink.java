package io.argus.core.trace;

/** Where finished spans go. Must never block the calling (application) thread. */
public interface SpanSink {
    void accept(RecordedSpan span);
}
