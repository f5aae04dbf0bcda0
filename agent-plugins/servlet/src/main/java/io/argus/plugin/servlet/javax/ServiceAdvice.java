package io.argus.plugin.servlet.javax;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.Argus;
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
 * <p>Enter, on a {@code REQUEST} dispatch of an HTTP request that has no
 * {@code io.argus.server.owner} attribute (no container plugin records it, and no outer call of
 * this probe traces it): reads the trace headers, starts the span, and for a traced request sets the
 * attribute to the span. On an {@code ASYNC} dispatch of a request this probe traces, the span is
 * made current while the servlet runs. Anything else is left alone.
 *
 * <p>Exit: a request that did not go async ends here, with the response status (500 if the servlet
 * threw before the response was committed, as the container will answer). A request that went async
 * keeps its start time and path in request attributes, its span leaves this thread, and the shared
 * {@code AsyncEndListener} ends it when the container completes it. That listener is a helper class
 * of the probe: the engine defined it in this class's loader before inlining this advice, so the
 * advice names it directly and registers its one shared instance. If registering fails, the request
 * ends here instead, and the failure is counted as an advice error.
 *
 * <p>Untraced synchronous requests allocate nothing here: an attribute look-up, header look-ups,
 * the method and path Strings the container keeps (see README.md), and locals.
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
                Object span = request.getAttribute("io.argus.server.owner");
                if (span instanceof ActiveSpan) {
                    previous = Argus.attachContext(span);
                    mode = 2;
                }
            }
            return null;
        }
        if (request.getAttribute("io.argus.server.owner") != null) {
            return null;
        }
        mode = 1;
        start = System.nanoTime();
        path = request.getRequestURI();
        String traceparent = request.getHeader("traceparent");
        String tracestate = null;
        String b3 = null;
        if (traceparent != null) {
            tracestate = request.getHeader("tracestate");
        } else {
            b3 = request.getHeader("b3");
            if (b3 == null) {
                String traceId = request.getHeader("X-B3-TraceId");
                if (traceId != null) {
                    b3 = Argus.b3Multi(traceId, request.getHeader("X-B3-SpanId"), request.getHeader("X-B3-Sampled"));
                }
            }
        }
        ActiveSpan span = Argus.serverStart(request.getMethod(), path, traceparent, tracestate, b3);
        if (span != null) {
            request.setAttribute("io.argus.server.owner", span);
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
                            @Advice.Thrown Throwable thrown) {
        if (mode == 2) {
            Argus.restoreContext(previous);
            return;
        }
        if (mode != 1) {
            return;
        }
        HttpServletRequest request = (HttpServletRequest) req;
        if (thrown == null && request.isAsyncStarted()) {
            try {
                // inside the dispatch that started async: the completion cannot run before this returns
                request.setAttribute("io.argus.servlet.start", Long.valueOf(start));
                request.setAttribute("io.argus.servlet.path", path);
                request.getAsyncContext().addListener(AsyncEndListener.INSTANCE);
                if (span != null) {
                    Argus.detach(span);
                }
                return;
            } catch (Throwable t) {
                Argus.adviceError(t);
                request.removeAttribute("io.argus.servlet.start");
                request.removeAttribute("io.argus.servlet.path");
            }
        }
        int status = res instanceof HttpServletResponse ? ((HttpServletResponse) res).getStatus() : 200;
        if (thrown != null && !res.isCommitted()) {
            status = 500;
        }
        if (span != null) {
            request.removeAttribute("io.argus.server.owner");
        }
        Argus.serverEnd(span, start, request.getMethod(), path, status, thrown);
    }
}
