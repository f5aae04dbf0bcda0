package io.argus.core.trace;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.context.ContextHooks;

/** The agent behind {@code TraceContext}: the current context per thread, and in-process spans. */
public final class ContextRecorder implements ContextHooks {

    private final Tracer tracer;

    public ContextRecorder(Tracer tracer) {
        this.tracer = tracer;
    }

    @Override
    public Object current() {
        return tracer.current();
    }

    @Override
    public Object attach(Object context) {
        return tracer.attach(context instanceof RecordedSpan ? (RecordedSpan) context : null);
    }

    @Override
    public void restore(Object previous) {
        tracer.attach(previous instanceof RecordedSpan ? (RecordedSpan) previous : null);
    }

    @Override
    public Object attachInherited(Object context) {
        return context instanceof RecordedSpan ? tracer.attachInherited((RecordedSpan) context) : attach(context);
    }

    @Override
    public void detach(ActiveSpan span) {
        if (span instanceof RecordedSpan) {
            tracer.detach((RecordedSpan) span);
        }
    }

    @Override
    public ActiveSpan startInternal(String name) {
        return tracer.startInternal(name);
    }

    @Override
    public void endInternal(ActiveSpan span, Throwable error) {
        if (span instanceof RecordedSpan) {
            tracer.end((RecordedSpan) span, System.nanoTime(), error, false);
        }
    }
}
