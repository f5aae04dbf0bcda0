package io.argus.plugin.reactor;

import io.argus.bridge.context.TraceContext;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.util.context.Context;

/**
 * A subscriber that makes its trace context current around each signal it passes to the downstream subscriber,
 * and restores what the thread had after, so that nothing stays on an event loop or a scheduler's thread. The
 * upstream's subscription is passed on as it is: operators that fuse across it (a fuseable upstream pulled by its
 * downstream) keep fusing, and those values are pulled on the downstream's thread, under the context its own
 * signals or its scheduled task made current. Its Reactor {@code Context} carries the trace context to
 * subscriptions made on other threads. A helper class.
 */
public final class TracingSubscriber<T> implements CoreSubscriber<T> {
    private final CoreSubscriber<? super T> downstream;
    private final Object trace;
    private final Context context;

    TracingSubscriber(CoreSubscriber<? super T> downstream, Object trace) {
        this.downstream = downstream;
        this.trace = trace;
        this.context = downstream.currentContext().put(ReactorContext.KEY, trace);
    }

    @Override
    public Context currentContext() {
        return context;
    }

    @Override
    public void onSubscribe(Subscription s) {
        Object previous = TraceContext.attach(trace);
        try {
            downstream.onSubscribe(s);
        } finally {
            TraceContext.restore(previous);
        }
    }

    @Override
    public void onNext(T value) {
        Object previous = TraceContext.attach(trace);
        try {
            downstream.onNext(value);
        } finally {
            TraceContext.restore(previous);
        }
    }

    @Override
    public void onError(Throwable error) {
        Object previous = TraceContext.attach(trace);
        try {
            downstream.onError(error);
        } finally {
            TraceContext.restore(previous);
        }
    }

    @Override
    public void onComplete() {
        Object previous = TraceContext.attach(trace);
        try {
            downstream.onComplete();
        } finally {
            TraceContext.restore(previous);
        }
    }
}
