package io.argus.plugin.jettyclient.app;

import org.eclipse.jetty.proxy.AsyncProxyServlet;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.servlet.ServletHolder;

import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The proxy scenario, the pattern of Apache Druid's router ({@code AsyncQueryForwardingServlet}
 * extends Jetty's {@code AsyncProxyServlet} and picks the target in {@code rewriteTarget}): a Jetty
 * 9.4 server whose {@code AsyncProxyServlet} forwards every request to a servlet on a second Jetty
 * server ("backend"). The backend prints {@code BACKEND tag=<tag> traceparent=<value>} for each
 * request it receives; its status is 500 for {@code /proxied/fail}, 200 otherwise. Prints
 * {@code PROXY port=<proxy port> backendPort=<n>}.
 */
final class ProxySetup {

    private ProxySetup() {
    }

    static void start() throws Exception {
        Server backend = new Server();
        ServerConnector backendConnector = new ServerConnector(backend);
        backendConnector.setHost("127.0.0.1");
        backend.addConnector(backendConnector);
        ServletContextHandler backendContext = new ServletContextHandler();
        backendContext.addServlet(new ServletHolder(new HttpServlet() {
            @Override
            protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
                String query = request.getQueryString();
                String tag = query != null && query.startsWith("tag=") ? query.substring(4) : "?";
                System.out.println("BACKEND tag=" + tag + " traceparent=" + request.getHeader("traceparent"));
                response.setStatus(request.getRequestURI().endsWith("/fail") ? 500 : 200);
                response.getOutputStream().write(("backend-" + tag).getBytes(StandardCharsets.UTF_8));
            }
        }), "/*");
        backend.setHandler(backendContext);
        backend.start();
        int backendPort = backendConnector.getLocalPort();

        Server proxy = new Server();
        ServerConnector proxyConnector = new ServerConnector(proxy);
        proxyConnector.setHost("127.0.0.1");
        proxy.addConnector(proxyConnector);
        ServletContextHandler proxyContext = new ServletContextHandler();
        ServletHolder holder = new ServletHolder(new AsyncProxyServlet() {
            @Override
            protected String rewriteTarget(HttpServletRequest request) {
                String query = request.getQueryString();
                return "http://127.0.0.1:" + backendPort + request.getRequestURI() + (query == null ? "" : "?" + query);
            }
        });
        proxyContext.addServlet(holder, "/*");
        proxy.setHandler(proxyContext);
        proxy.start();
        System.out.println("PROXY port=" + proxyConnector.getLocalPort() + " backendPort=" + backendPort);
    }
}
