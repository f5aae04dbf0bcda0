package io.argus.plugin.okhttp;

import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.Response;

import java.io.IOException;

/**
 * Helper class, defined by the engine in OkHttp's own class loader: what {@link EnqueueAdvice} hands
 * to {@code RealCall.enqueue} in place of a traced caller's callback. It carries the caller's
 * context to the dispatcher thread, where {@link AsyncCallRunAdvice} finds it in the
 * {@code AsyncCall}'s {@code responseCallback} field, and forwards both calls to the application's
 * callback unchanged (its exceptions included: they are the application's, for OkHttp to handle as
 * without the agent). Uses only OkHttp's public {@code Callback} API, the same in 3.x, 4.x and 5.x.
 */
public final class ContextCallback implements Callback {

    /** The caller's trace context, as {@code TraceContext.current()} returned it. */
    public final Object context;
    private final Callback delegate;

    public ContextCallback(Object context, Callback delegate) {
        this.context = context;
        this.delegate = delegate;
    }

    @Override
    public void onFailure(Call call, IOException e) {
        delegate.onFailure(call, e);
    }

    @Override
    public void onResponse(Call call, Response response) throws IOException {
        delegate.onResponse(call, response);
    }

    @Override
    public String toString() {
        return delegate.toString();
    }
}
