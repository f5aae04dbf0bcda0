package io.argus.plugin.tomcat.app;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.client.ClientCalls;
import io.argus.bridge.context.TraceContext;
import io.argus.testing.app.ClassVisibility;
import org.apache.catalina.Context;
import org.apache.catalina.Wrapper;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;

import javax.servlet.AsyncContext;
import javax.servlet.DispatcherType;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * An embedded Tomcat application, run in a forked JVM under the agent. This file is written against
 * javax.servlet (Tomcat 9); the build also compiles a copy with jakarta.servlet for Tomcat 10.1/11.
 *
 * <p>Endpoints: {@code /hello} and {@code /hello/*} (200), {@code /fail} (500 set by the servlet),
 * {@code /boom} (the servlet throws), {@code /async} (AsyncContext completed {@value #ASYNC_DELAY_MS} ms
 * later on another thread), {@code /asyncdispatch} (AsyncContext dispatched back to the servlet
 * {@value #ASYNC_DELAY_MS} ms later), {@code /child} (makes a client span through the bridge, as an
 * HTTP client plugin would), {@code /ctx} (200 when no trace context is current, 409 otherwise);
 * anything else is not found (404). One worker thread serves every request, so a trace context left
 * behind by one request would be seen by the next.
 */
public final class TomcatApp {

    static final long ASYNC_DELAY_MS = 200;

    private TomcatApp() {
    }

    public static void main(String[] args) throws Exception {
        final ScheduledExecutorService later = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "app-async");
            t.setDaemon(true);
            return t;
        });
        File base = Files.createTempDirectory("argus-tomcat-app").toFile();
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(base.getAbsolutePath());
        Connector connector = new Connector("HTTP/1.1");
        connector.setPort(0);
        connector.setProperty("address", "127.0.0.1");
        connector.setProperty("maxThreads", "1");
        tomcat.getService().addConnector(connector);
        tomcat.setConnector(connector);
        Context context = tomcat.addContext("", base.getAbsolutePath());

        add(context, "hello", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                resp.setContentType("text/plain");
                resp.getWriter().print("hello");
            }
        }, "/hello", "/hello/*");
        add(context, "fail", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                resp.setStatus(500);
                resp.getWriter().print("failed");
            }
        }, "/fail");
        add(context, "boom", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) {
                throw new IllegalStateException("boom");
            }
        }, "/boom");
        add(context, "async", new HttpServlet() {
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
        }, "/async");
        add(context, "asyncdispatch", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                if (req.getDispatcherType() == DispatcherType.ASYNC) {
                    clientCall();
                    resp.setContentType("text/plain");
                    resp.getWriter().print("dispatched");
                    return;
                }
                AsyncContext ctx = req.startAsync();
                later.schedule((Runnable) ctx::dispatch, ASYNC_DELAY_MS, TimeUnit.MILLISECONDS);
            }
        }, "/asyncdispatch");
        add(context, "child", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                clientCall();
                resp.getWriter().print("child");
            }
        }, "/child");
        add(context, "ctx", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) {
                resp.setStatus(TraceContext.current() == null ? 200 : 409);
            }
        }, "/ctx");

        tomcat.start();
        ClassVisibility.print(TomcatApp.class);
        System.out.println("READY port=" + connector.getLocalPort() + " server=" + org.apache.catalina.util.ServerInfo.getServerInfo());
        tomcat.getServer().await();
    }

    /** What an HTTP client plugin does around an outgoing call. */
    static void clientCall() {
        long start = System.nanoTime();
        ActiveSpan span = ClientCalls.start("GET", "downstream.test", 80, "http://downstream.test/child");
        ClientCalls.end(span, start, "GET", "downstream.test", 200, null);
    }

    private static void add(Context context, String name, HttpServlet servlet, String... patterns) {
        Wrapper wrapper = Tomcat.addServlet(context, name, servlet);
        wrapper.setAsyncSupported(true);
        for (String pattern : patterns) {
            context.addServletMappingDecoded(pattern, name);
        }
    }
}
