package io.argus.plugin.servlet.javax;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.server.ServerCalls;
import io.argus.plugin.servlet.RequestFields;

import javax.servlet.AsyncContext;
import javax.servlet.AsyncEvent;
import javax.servlet.AsyncListener;
import javax.servlet.ServletRequest;
import javax.servlet.ServletResponse;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * Ends a request that the servlet probe recorded and that went async, when the container completes it
 * (after a {@code complete()}, the end of the last dispatch, a timeout or an error). Stateless: one
 * instance per class loader, registered on each such request; fields of the container's request
 * object ({@link RequestFields}) carry the start time, path and span, and are cleared, so the request
 * is recorded once.
 *
 * <p>A helper class: never loaded by the agent. The engine defines it in the class loader of the
 * application's {@code HttpServlet} (see {@code TypeProbe#helpers}), because an AsyncListener must
 * implement that API's interface; {@code ServiceAdvice} registers {@link #INSTANCE}. It uses only the
 * servlet API and the bridge. A copy with the jakarta namespace is built from this file.
 */
public final class AsyncEndListener implements AsyncListener {

    /** The one listener of its class loader: it keeps no state. */
    public static final AsyncEndListener INSTANCE = new AsyncEndListener();

    private AsyncEndListener() {
    }

    @Override
    public void onComplete(AsyncEvent event) {
        ServletRequest request = request(event);
        if (!(request instanceof HttpServletRequest)) {
            return;
        }
        ServletRequest owner = ContainerRequest.of(request);
        long start = RequestFields.REQUEST_START.remove(owner);
        if (start == 0) {
            return;
        }
        String path = RequestFields.REQUEST_PATH.remove(owner);
        ActiveSpan span = RequestFields.REQUEST_SPAN.remove(owner);
        Throwable error = RequestFields.REQUEST_ERROR.remove(owner);
        ServletResponse response = response(event);
        int status = response instanceof HttpServletResponse ? ((HttpServletResponse) response).getStatus() : 200;
        ServerCalls.end(span, start, ((HttpServletRequest) request).getMethod(),
                path != null ? path : ((HttpServletRequest) request).getRequestURI(), status, error);
    }

    @Override
    public void onTimeout(AsyncEvent event) {
        // the container completes the request next (onComplete), with the status it settled on
    }

    @Override
    public void onError(AsyncEvent event) {
        ServletRequest request = request(event);
        Throwable error = event.getThrowable();
        if (request != null && error != null) {
            ServletRequest owner = ContainerRequest.of(request);
            if (RequestFields.REQUEST_SPAN.get(owner) != null) {
                RequestFields.REQUEST_ERROR.set(owner, error);
            }
        }
    }

    @Override
    public void onStartAsync(AsyncEvent event) {
        // a new async cycle drops the listeners of the last one: stay registered until completion
        AsyncContext context = event.getAsyncContext();
        if (context != null) {
            context.addListener(this);
        }
    }

    private static ServletRequest request(AsyncEvent event) {
        ServletRequest supplied = event.getSuppliedRequest();
        if (supplied != null) {
            return supplied;
        }
        AsyncContext context = event.getAsyncContext();
        return context == null ? null : context.getRequest();
    }

    private static ServletResponse response(AsyncEvent event) {
        ServletResponse supplied = event.getSuppliedResponse();
        if (supplied != null) {
            return supplied;
        }
        AsyncContext context = event.getAsyncContext();
        return context == null ? null : context.getResponse();
    }
}
