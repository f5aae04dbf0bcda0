package io.argus.core.client;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.client.ClientHooks;

import java.lang.reflect.Method;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.BiConsumer;

/** Ends an asynchronous client call when its future completes. */
final class ClientCompletion implements BiConsumer<Object, Throwable> {

    /** {@code statusCode()} of the result's class, looked up once per class. */
    private static final ClassValue<Method> STATUS_CODE = new ClassValue<Method>() {
        @Override
        protected Method computeValue(Class<?> type) {
            for (Class<?> c = type; c != null; c = c.getSuperclass()) {
                for (Class<?> i : c.getInterfaces()) {
                    try {
                        Method method = i.getMethod("statusCode");
                        if (method.getReturnType() == int.class) {
                            return method;
                        }
                    } catch (NoSuchMethodException ignored) {
                        // try the next interface
                    }
                }
            }
            return null;
        }
    };

    private final ClientHooks hooks;
    private final ActiveSpan span;
    private final long startNanos;
    private final String method;
    private final String host;

    private ClientCompletion(ClientHooks hooks, ActiveSpan span, long startNanos, String method, String host) {
        this.hooks = hooks;
        this.span = span;
        this.startNanos = startNanos;
        this.method = method;
        this.host = host;
    }

    static void attach(ClientHooks hooks, Object completionStage, ActiveSpan span, long startNanos, String method,
                       String host) {
        if (completionStage instanceof CompletionStage) {
            ((CompletionStage<?>) completionStage).whenComplete(
                    new ClientCompletion(hooks, span, startNanos, method, host));
        }
    }

    @Override
    public void accept(Object result, Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        hooks.end(span, startNanos, method, host, cause == null ? statusOf(result) : 0, cause);
    }

    static int statusOf(Object result) {
        if (result == null) {
            return 0;
        }
        Method statusCode = STATUS_CODE.get(result.getClass());
        if (statusCode == null) {
            return 0;
        }
        try {
            return (Integer) statusCode.invoke(result);
        } catch (Exception e) {
            return 0;
        }
    }
}
