package io.argus.plugin.servlet.javax;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.context.TraceContext;
import io.argus.bridge.server.ServerCalls;
import io.argus.plugin.servlet.RequestFields;
import net.bytebuddy.asm.Advice;

import javax.servlet.DispatcherType;
import javax.servlet.ServletRequest;
import javax.servlet.ServletResponse;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * Inlined into {@code javax.servlet.http.HttpServlet#service(ServletRequest, ServletResponse)}. The
 * build compiles a copy of this class for {@code jakarta.servlet} (package
 * {@code io.argus.plugin.servlet.jakarta}) with the namespace rewritten; keep it to Servlet 3.0 API.
 *
 * <p>Enter, on a {@code REQUEST} dispatch of an HTTP request that no one else records (no container
 * plugin, no outer call of this probe; see {@link RequestFields#recordedElsewhere}): starts the span
 * (the core reads the trace headers through {@link RequestHeaders}) and keeps a traced request's span
 * on the container's request object. On an {@code ASYNC} dispatch of a request this probe traces,
 * the span is made current while the servlet runs. Anything else is left alone.
 *
 * <p>Exit: a request that did not go async ends here, with the response status (500 if the servlet
 * threw before the response was committed, as the container will answer). A request that went async
 * keeps its start time and path on the container's request object, its span leaves this thread, and
 * the shared {@code AsyncEndListener} ends it when the container completes it. That listener is a
 * helper class of the probe: the engine defined it in this class's loader before inlining this
 * advice, so the advice registers its one shared instance. If registering fails, the request ends
 * here instead, and the failure is rethrown to the engine's handler, which counts it as an advice error.
 *
 * <p>Untraced synchronous requests allocate nothing here: field reads, header look-ups, the method and
 * path Strings the container keeps (see README.md), and locals.
 */
public final class ServiceAdvice {

    private ServiceAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static ActiveSpan enter(@Advice.Argument(0) ServletRequest req,
                                   @Advice.Local("argusMode") int mode,
                                   @Advice.Local("argusStart") long start,
                                   @Advice.Local("argusPath") String path,
                                   @Advice.Local("argusPrevious") Object previous) {
        if (!(req instanceof HttpServletRequest)) {
            return null;
        }
        HttpServletRequest request = (HttpServletRequest) req;
        DispatcherType dispatch = request.getDispatcherType();
        if (dispatch != DispatcherType.REQUEST) {
            if (dispatch == DispatcherType.ASYNC) {
                ActiveSpan span = RequestFields.REQUEST_SPAN.get(ContainerRequest.of(req));
                if (span != null) {
                    previous = TraceContext.attach(span);
                    mode = 2;
                }
            }
            return null;
        }
        ServletRequest owner = ContainerRequest.of(req);
        if (RequestFields.recordedElsewhere(owner)) {
            return null;
        }
        mode = 1;
        start = System.nanoTime();
        path = request.getRequestURI();
        ActiveSpan span = ServerCalls.start(request.getMethod(), path, start, request, RequestHeaders.INSTANCE);
        if (span != null) {
            RequestFields.REQUEST_SPAN.set(owner, span);
        }
        return span;
    }

    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    public static void exit(@Advice.Argument(0) ServletRequest req,
                            @Advice.Argument(1) ServletResponse res,
                            @Advice.Enter ActiveSpan span,
                            @Advice.Local("argusMode") int mode,
                            @Advice.Local("argusStart") long start,
                            @Advice.Local("argusPath") String path,
                            @Advice.Local("argusPrevious") Object previous,
                            @Advice.Thrown Throwable thrown) throws Throwable {
        if (mode == 2) {
            TraceContext.restore(previous);
            return;
        }
        if (mode != 1) {
            return;
        }
        HttpServletRequest request = (HttpServletRequest) req;
        ServletRequest owner = ContainerRequest.of(req);
        Throwable unregistered = null;
        if (thrown == null && request.isAsyncStarted()) {
            try {
                // inside the dispatch that started async: the completion cannot run before this returns
                RequestFields.REQUEST_START.set(owner, start);
                RequestFields.REQUEST_PATH.set(owner, path);
                request.getAsyncContext().addListener(AsyncEndListener.INSTANCE);
                if (span != null) {
                    TraceContext.detach(span);
                }
                return;
            } catch (Throwable t) {
                RequestFields.REQUEST_START.remove(owner);
                RequestFields.REQUEST_PATH.remove(owner);
                unregistered = t;
            }
        }
        int status = res instanceof HttpServletResponse ? ((HttpServletResponse) res).getStatus() : 200;
        if (thrown != null && !res.isCommitted()) {
            status = 500;
        }
        if (span != null) {
            RequestFields.REQUEST_SPAN.remove(owner);
        }
        ServerCalls.end(span, start, request.getMethod(), path, status, thrown);
        if (unregistered != null) {
            throw unregistered;
        }
    }
}
