package io.argus.plugin.servlet.app;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.client.ClientCalls;
import io.argus.bridge.context.TraceContext;

import javax.servlet.AsyncContext;
import javax.servlet.DispatcherType;
import javax.servlet.ServletException;
import javax.servlet.ServletRequest;
import javax.servlet.ServletResponse;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The servlets of the test application, the same on every container. Written against javax.servlet
 * (Servlet 3.0 API only); the build also compiles a copy with jakarta.servlet.
 *
 * <ul>
 *   <li>{@code /hello}, {@code /hello/*}: 200</li>
 *   <li>{@code /fail}: 500 set by the servlet; {@code /boom}: the servlet throws</li>
 *   <li>{@code /async}: AsyncContext completed {@value #ASYNC_DELAY_MS} ms later on another thread</li>
 *   <li>{@code /asyncdispatch}: AsyncContext dispatched back {@value #ASYNC_DELAY_MS} ms later; the
 *       async dispatch makes a client span</li>
 *   <li>{@code /child}: makes a client span through the bridge, as an HTTP client plugin would</li>
 *   <li>{@code /forward}: forwards to {@code /hello}; {@code /nested}: calls another servlet's
 *       {@code service} directly with the same request</li>
 *   <li>{@code /ctx}: 200 when no trace context is current, 409 otherwise</li>
 * </ul>
 */
public final class Endpoints {

    static final long ASYNC_DELAY_MS = 200;

    private static final ScheduledExecutorService LATER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "app-async");
        t.setDaemon(true);
        return t;
    });

    private Endpoints() {
    }

    /** A servlet and the URL patterns it is mapped to. */
    public static final class Endpoint {
        public final String name;
        public final HttpServlet servlet;
        public final String[] patterns;

        Endpoint(String name, HttpServlet servlet, String... patterns) {
            this.name = name;
            this.servlet = servlet;
            this.patterns = patterns;
        }
    }

    public static List<Endpoint> all() {
        List<Endpoint> all = new ArrayList<>();
        HttpServlet hello = new Hello();
        all.add(new Endpoint("hello", hello, "/hello", "/hello/*"));
        all.add(new Endpoint("fail", new Fail(), "/fail"));
        all.add(new Endpoint("boom", new Boom(), "/boom"));
        all.add(new Endpoint("async", new Async(), "/async"));
        all.add(new Endpoint("asyncdispatch", new AsyncDispatch(), "/asyncdispatch"));
        all.add(new Endpoint("child", new Child(), "/child"));
        all.add(new Endpoint("forward", new Forward(), "/forward"));
        all.add(new Endpoint("nested", new Nested(hello), "/nested"));
        all.add(new Endpoint("ctx", new Ctx(), "/ctx"));
        return all;
    }

    /** What an HTTP client plugin does around an outgoing call. */
    static void clientCall() {
        long start = System.nanoTime();
        ActiveSpan span = ClientCalls.start("GET", "downstream.test", 80, "http://downstream.test/child");
        ClientCalls.end(span, start, "GET", "downstream.test", 200, null);
    }

    public static final class Hello extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            resp.setContentType("text/plain");
            resp.getWriter().print("hello");
        }
    }

    public static final class Fail extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            resp.setStatus(500);
            resp.getWriter().print("failed");
        }
    }

    public static final class Boom extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) {
            throw new IllegalStateException("boom");
        }
    }

    public static final class Async extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) {
            AsyncContext ctx = req.startAsync();
            LATER.schedule(() -> {
                try {
                    ctx.getResponse().setContentType("text/plain");
                    ctx.getResponse().getWriter().print("async");
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
                ctx.complete();
            }, ASYNC_DELAY_MS, TimeUnit.MILLISECONDS);
        }
    }

    public static final class AsyncDispatch extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            if (req.getDispatcherType() == DispatcherType.ASYNC) {
                clientCall();
                resp.setContentType("text/plain");
                resp.getWriter().print("dispatched");
                return;
            }
            AsyncContext ctx = req.startAsync();
            LATER.schedule((Runnable) ctx::dispatch, ASYNC_DELAY_MS, TimeUnit.MILLISECONDS);
        }
    }

    public static final class Child extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            clientCall();
            resp.getWriter().print("child");
        }
    }

    public static final class Forward extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws ServletException, IOException {
            req.getRequestDispatcher("/hello/forwarded").forward(req, resp);
        }
    }

    public static final class Nested extends HttpServlet {
        private final HttpServlet other;

        Nested(HttpServlet other) {
            this.other = other;
        }

        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws ServletException, IOException {
            other.service((ServletRequest) req, (ServletResponse) resp);
        }
    }

    public static final class Ctx extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) {
            resp.setStatus(TraceContext.current() == null ? 200 : 409);
        }
    }
}
