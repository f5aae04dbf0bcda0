package io.argus.bridge.context;

import java.util.concurrent.Callable;

/** A callable that runs with the trace context of the thread that submitted it, then restores. */
public final class ContextCallable<V> implements Callable<V> {

    private final Object context;
    private final Callable<V> task;

    ContextCallable(Object context, Callable<V> task) {
        this.context = context;
        this.task = task;
    }

    @Override
    public V call() throws Exception {
        Object previous = TraceContext.attach(context);
        try {
            return task.call();
        } finally {
            TraceContext.restore(previous);
        }
    }

    public Callable<V> task() {
        return task;
    }

    @Override
    public String toString() {
        return task.toString();
    }
}
