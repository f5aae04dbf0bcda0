package io.argus.bridge.context;

/** A task that runs with the trace context of the thread that submitted it, then restores. */
public final class ContextRunnable implements Runnable {

    private final Object context;
    private final Runnable task;

    ContextRunnable(Object context, Runnable task) {
        this.context = context;
        this.task = task;
    }

    @Override
    public void run() {
        Object previous = TraceContext.attach(context);
        try {
            task.run();
        } finally {
            TraceContext.restore(previous);
        }
    }

    /** The wrapped task, e.g. for executors that hand tasks back ({@code shutdownNow}). */
    public Runnable task() {
        return task;
    }

    @Override
    public String toString() {
        return task.toString();
    }
}
