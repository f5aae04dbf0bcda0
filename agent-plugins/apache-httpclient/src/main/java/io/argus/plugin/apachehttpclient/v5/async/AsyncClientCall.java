package io.argus.plugin.apachehttpclient.v5.async;

import io.argus.bridge.ActiveSpan;
import io.argus.plugin.apachehttpclient.TargetUrl;
import io.argus.bridge.AdviceErrors;
import io.argus.bridge.client.ClientCalls;
import io.argus.bridge.context.TraceContext;
import io.argus.plugin.apachehttpclient.v5.RequestHeaders;
import org.apache.hc.client5.http.async.methods.ConfigurableHttpRequest;
import org.apache.hc.client5.http.config.Configurable;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.HttpRequest;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.message.BasicHttpRequest;
import org.apache.hc.core5.net.URIAuthority;

import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * One request of HttpClient 5's async client, from {@code doExecute} to its completion. It replaces
 * the callback that {@code doExecute} receives, so the library's future calls it exactly once, on the
 * I/O reactor thread, when the request completes, fails or is cancelled: it then records the client
 * metric, ends the span, and passes the outcome on to the callback it replaced.
 *
 * <p>{@link ObservedRequestProducer} tells it the request (method, host; the span starts there when
 * the caller had a sampled span) and {@link ObservedResponseConsumer} the final response's status.
 *
 * <p>A helper class: the engine defines it in the class loader of the instrumented client, because it
 * implements HttpCore's {@code FutureCallback}. It uses only the bridge, the JDK and HttpClient. None of
 * its own code may throw into the library: failures are counted as advice errors and the request goes on.
 */
public final class AsyncClientCall implements FutureCallback<Object> {

    private static final AtomicIntegerFieldUpdater<AsyncClientCall> ENDED =
            AtomicIntegerFieldUpdater.newUpdater(AsyncClientCall.class, "ended");
    /** The error a cancelled request's span carries; shared, so without a stack trace. */
    private static final CancellationException CANCELLED = new CancellationException("request cancelled");

    static {
        CANCELLED.setStackTrace(new StackTraceElement[0]);
    }

    private final FutureCallback<Object> delegate;
    private final HttpHost target;
    private final long startNanos;
    /** The caller's context when it was traced: the parent of the span, and current in the callback. */
    private final Object parentContext;
    // written when the request is produced and the response arrives, read on completion: the library's
    // hand-over between the caller and the I/O reactor orders them
    private String method;
    private String host;
    private int status;
    private ActiveSpan span;
    private volatile int ended;

    @SuppressWarnings("unchecked")
    public AsyncClientCall(HttpHost target, FutureCallback<?> delegate) {
        this.startNanos = System.nanoTime();
        this.target = target;
        this.delegate = (FutureCallback<Object>) delegate;
        this.parentContext = TraceContext.current();
    }

    /**
     * The request head the producer hands to the library. Returns what to send instead: the request
     * itself when untraced; when traced, a copy carrying the client span's {@code traceparent}
     * (and {@code tracestate}), so the application's object is never changed.
     */
    HttpRequest requestProduced(HttpRequest request) {
        try {
            method = request.getMethod();
            URIAuthority authority = request.getAuthority();
            host = target != null ? target.getHostName() : authority != null ? authority.getHostName() : null;
            if (parentContext == null) {
                return request;
            }
            if (span == null) {
                span = startSpan(request, authority);
                if (span == null) {
                    return request;
                }
            }
            return withTraceHeaders(request, span);
        } catch (Throwable t) {
            AdviceErrors.report(t);
            return request;
        }
    }

    void responseReceived(HttpResponse response) {
        if (response != null) {
            status = response.getCode();
        }
    }

    private ActiveSpan startSpan(HttpRequest request, URIAuthority authority) {
        String scheme;
        int port;
        if (target != null) {
            scheme = target.getSchemeName();
            port = target.getPort();
        } else {
            scheme = request.getScheme();
            port = authority != null ? authority.getPort() : -1;
        }
        String url = TargetUrl.of(scheme, host, port, request.getPath());
        port = TargetUrl.port(scheme, port);
        // the producer normally runs inside doExecute, on the caller's thread; if not, lend it the context
        Object previous = null;
        boolean attached = TraceContext.current() != parentContext;
        if (attached) {
            previous = TraceContext.attach(parentContext);
        }
        try {
            return ClientCalls.start(method, host, port, url);
        } finally {
            if (attached) {
                TraceContext.restore(previous);
            }
        }
    }

    /** A copy of the request head with the trace headers; the body is the producer's, not the head's. */
    private static HttpRequest withTraceHeaders(HttpRequest original, ActiveSpan span) {
        BasicHttpRequest copy;
        if (original instanceof Configurable) {
            // the client reads a request's own RequestConfig from here
            ConfigurableHttpRequest configurable = new ConfigurableHttpRequest(original.getMethod(), (String) null);
            configurable.setConfig(((Configurable) original).getConfig());
            copy = configurable;
        } else {
            copy = new BasicHttpRequest(original.getMethod(), (String) null);
        }
        copy.setScheme(original.getScheme());
        copy.setAuthority(original.getAuthority());
        copy.setPath(original.getPath());
        copy.setVersion(original.getVersion());
        copy.setHeaders(original.getHeaders());
        ClientCalls.inject(span, copy, RequestHeaders.INSTANCE);
        return copy;
    }

    @Override
    public void completed(Object result) {
        end(status, null);
        if (delegate == null) {
            return;
        }
        Object previous = enterCallback();
        try {
            delegate.completed(result);
        } finally {
            leaveCallback(previous);
        }
    }

    @Override
    public void failed(Exception error) {
        end(0, error);
        if (delegate == null) {
            return;
        }
        Object previous = enterCallback();
        try {
            delegate.failed(error);
        } finally {
            leaveCallback(previous);
        }
    }

    @Override
    public void cancelled() {
        end(0, CANCELLED);
        if (delegate == null) {
            return;
        }
        Object previous = enterCallback();
        try {
            delegate.cancelled();
        } finally {
            leaveCallback(previous);
        }
    }

    /** {@code doExecute} threw instead of handing the request to the library's future. */
    public void executeThrew(Throwable error) {
        end(0, error);
    }

    /** Records the request once, whichever way it ends first. */
    private void end(int finalStatus, Throwable error) {
        try {
            if (ENDED.compareAndSet(this, 0, 1)) {
                ClientCalls.end(span, startNanos, method, host, finalStatus, error);
            }
        } catch (Throwable t) {
            AdviceErrors.report(t);
        }
    }

    /** The application's callback runs in the context of the call that made the request, when traced. */
    private Object enterCallback() {
        if (parentContext == null) {
            return null;
        }
        try {
            return TraceContext.attach(parentContext);
        } catch (Throwable t) {
            AdviceErrors.report(t);
            return null;
        }
    }

    private void leaveCallback(Object previous) {
        if (parentContext == null) {
            return;
        }
        try {
            TraceContext.restore(previous);
        } catch (Throwable t) {
            AdviceErrors.report(t);
        }
    }
}
