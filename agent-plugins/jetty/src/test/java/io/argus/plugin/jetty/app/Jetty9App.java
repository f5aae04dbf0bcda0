package io.argus.plugin.jetty.app;

import io.argus.testing.app.ClassVisibility;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.servlet.ServletHolder;

import javax.servlet.AsyncContext;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A Jetty 9.4 servlet application, run in a forked JVM under the agent. Endpoints:
 * {@code /hello} and {@code /hello/*} (200), {@code /fail} (500 set by the servlet), {@code /boom} (the servlet throws),
 * {@code /async} (AsyncContext completed {@value #ASYNC_DELAY_MS} ms later on another thread),
 * {@code /async-abandoned} (the same, {@value #ABANDONED_DELAY_MS} ms later, writing to a client that left);
 * anything else is not found (404).
 */
public final class Jetty9App {

    static final long ASYNC_DELAY_MS = 200;
    public static final long ABANDONED_DELAY_MS = 500;

    private Jetty9App() {
    }

    public static void main(String[] args) throws Exception {
        ScheduledExecutorService later = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "app-async");
            t.setDaemon(true);
            return t;
        });
        Server server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/");
        ServletHolder hello = new ServletHolder(new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                resp.setContentType("text/plain");
                resp.getWriter().print("hello");
            }
        });
        context.addServlet(new ServletHolder(new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) {
                // did the agent give Jetty's request its fields as the class loaded?
                resp.setStatus(ClassVisibility.isFieldOwner(org.eclipse.jetty.server.Request.getBaseRequest(req)) ? 200 : 409);
            }
        }), "/fields");
        context.addServlet(hello, "/hello");
        context.addServlet(hello, "/hello/*");
        context.addServlet(new ServletHolder(new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                resp.setStatus(500);
                resp.getWriter().print("failed");
            }
        }), "/fail");
        context.addServlet(new ServletHolder(new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) {
                throw new IllegalStateException("boom");
            }
        }), "/boom");
        ServletHolder async = new ServletHolder(new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) {
                AsyncContext ctx = req.startAsync();
                later.schedule(() -> {
                    try {
                        ctx.getResponse().setContentType("text/plain");
                        ctx.getResponse().getWriter().print("async");
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    }
                    ctx.complete();
                }, ASYNC_DELAY_MS, TimeUnit.MILLISECONDS);
            }
        });
        async.setAsyncSupported(true);
        context.addServlet(async, "/async");
        // the client is gone by the time the response is written: an async request its caller abandoned
        ServletHolder abandoned = new ServletHolder(new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) {
                AsyncContext ctx = req.startAsync();
                later.schedule(() -> {
                    try {
                        ctx.getResponse().getOutputStream().write(new byte[64 * 1024]);
                        ctx.getResponse().flushBuffer();
                    } catch (IOException expected) {
                        // the connection is closed
                    }
                    ctx.complete();
                }, ABANDONED_DELAY_MS, TimeUnit.MILLISECONDS);
            }
        });
        abandoned.setAsyncSupported(true);
        context.addServlet(abandoned, "/async-abandoned");
        server.setHandler(context);
        server.start();
        ClassVisibility.print(Jetty9App.class);
        System.out.println("READY port=" + connector.getLocalPort() + " jetty=" + Server.getVersion());
        server.join();
    }
}
