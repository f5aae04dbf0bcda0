package io.argus.plugin.mongodb;

import com.mongodb.internal.async.SingleResultCallback;
import io.argus.bridge.context.TraceContext;

/**
 * A driver callback that runs with the context of the thread that asked for a connection or a
 * server: the async driver may call it back on its own threads (a pool's checkout thread, a socket
 * thread), where the command then starts. Made only when that thread holds a context. A helper class:
 * defined in the driver's class loader.
 */
public final class MongoContextCallback<T> implements SingleResultCallback<T> {

    private final SingleResultCallback<T> delegate;
    private final Object context;

    private MongoContextCallback(SingleResultCallback<T> delegate, Object context) {
        this.delegate = delegate;
        this.context = context;
    }

    /** {@code callback} carrying this thread's context; itself when there is none. */
    @SuppressWarnings("unchecked")
    public static Object wrap(Object callback) {
        Object context = TraceContext.current();
        if (context == null || !(callback instanceof SingleResultCallback) || callback instanceof MongoContextCallback) {
            return callback;
        }
        return new MongoContextCallback<Object>((SingleResultCallback<Object>) callback, context);
    }

    @Override
    public void onResult(T result, Throwable error) {
        Object previous = TraceContext.attach(context);
        try {
            delegate.onResult(result, error);
        } finally {
            TraceContext.restore(previous);
        }
    }
}
