package io.argus.plugin.mongodb;

import com.mongodb.internal.async.SingleResultCallback;
import io.argus.bridge.ActiveSpan;
import io.argus.bridge.db.DatabaseCalls;

/**
 * The driver's callback of an asynchronous command, wrapped: ends the command (metrics, span) when
 * the driver calls back, then passes the result on unchanged. A helper class: defined in the driver's
 * class loader.
 */
public final class MongoCallback<T> implements SingleResultCallback<T> {

    private final SingleResultCallback<T> delegate;
    private final long start;
    private final ActiveSpan span;
    private final String operation;
    private final String target;

    MongoCallback(SingleResultCallback<T> delegate, long start, ActiveSpan span, String operation, String target) {
        this.delegate = delegate;
        this.start = start;
        this.span = span;
        this.operation = operation;
        this.target = target;
    }

    @Override
    public void onResult(T result, Throwable error) {
        try {
            DatabaseCalls.endCall(span, start, operation, target, error);
        } catch (Throwable ignored) {
            // the driver's callback must run whatever the agent does
        }
        delegate.onResult(result, error);
    }
}
