package io.argus.bridge.context;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.AgentStatus;
import io.argus.bridge.state.ObjectField;

import java.util.concurrent.Callable;

/**
 * The current trace context of a thread, carried to other threads, and spans that start and end in
 * process (method tracing). A context is an opaque object: null when nothing is traced.
 */
public final class TraceContext {

    /** The name of the field that carries a context on a task or thread; plugins may declare owners for it. */
    public static final String CARRIED_FIELD = "context.carried";

    private static volatile ContextHooks hooks = ContextHooks.NOOP;
    private static volatile ObjectField<Object> carried;

    private TraceContext() {
    }

    public static void install(ContextHooks implementation) {
        hooks = implementation == null ? ContextHooks.NOOP : implementation;
    }

    /** Called by the core once the field {@link #CARRIED_FIELD} is declared. */
    public static void installCarrier(ObjectField<Object> field) {
        carried = field;
    }

    /**
     * Leaves this thread's current context on a task object that cannot be wrapped (a
     * {@code ForkJoinTask}, a {@code Thread}), for {@link #takeCarried} on the thread that runs it.
     * Does nothing, and allocates nothing, when nothing is traced here.
     */
    public static void carry(Object carrier) {
        Object context = hooks().current();
        ObjectField<Object> field = carried;
        if (context != null && field != null) {
            field.set(carrier, context);
        }
    }

    /** Removes and returns the context {@link #carry} left on {@code carrier}; null when there is none. */
    public static Object takeCarried(Object carrier) {
        ObjectField<Object> field = carried;
        return field == null ? null : field.remove(carrier);
    }

    /** The current context, to be carried to another thread; null when nothing is traced. */
    public static Object current() {
        return hooks().current();
    }

    /** Makes {@code context} current on this thread and returns what was current before. */
    public static Object attach(Object context) {
        return hooks().attach(context);
    }

    /**
     * As {@link #attach}, for a context a new thread inherited from the thread that started it: it
     * lapses once its span has ended, since a pool or event-loop thread started during a request may
     * outlive the request by far.
     */
    public static Object attachInherited(Object context) {
        return hooks().attachInherited(context);
    }

    /** Undoes {@link #attach}. */
    public static void restore(Object previous) {
        hooks().restore(previous);
    }

    /** Takes a started span off this thread, restoring the context that was current before it. */
    public static void detach(ActiveSpan span) {
        hooks().detach(span);
    }

    /**
     * Wraps a task so that it runs with this thread's current context; returns the task itself (no
     * allocation) when nothing is traced here or it is already wrapped.
     */
    public static Runnable wrap(Runnable task) {
        if (task == null || task instanceof ContextRunnable) {
            return task;
        }
        Object context = hooks().current();
        return context == null ? task : new ContextRunnable(context, task);
    }

    /** As {@link #wrap(Runnable)}, for callables. */
    public static <V> Callable<V> wrap(Callable<V> task) {
        if (task == null || task instanceof ContextCallable) {
            return task;
        }
        Object context = hooks().current();
        return context == null ? task : new ContextCallable<V>(context, task);
    }

    /** An in-process span: a child of the current span, or a new root when sampled. Made current; null when not traced. */
    public static ActiveSpan startInternal(String name) {
        return hooks().startInternal(name);
    }

    /** Ends an in-process span and restores the context that was current before it. */
    public static void endInternal(ActiveSpan span, Throwable error) {
        hooks().endInternal(span, error);
    }

    /** The core's hooks; before the core is ready (advice in a class defined early), waits for it. */
    private static ContextHooks hooks() {
        ContextHooks installed = hooks;
        if (installed == ContextHooks.NOOP) {
            AgentStatus.awaitSettled();
            installed = hooks;
        }
        return installed;
    }
}
