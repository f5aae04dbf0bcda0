package io.argus.plugin.servlet.app;

import io.argus.testing.app.ClassVisibility;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/** The servlets of {@link Endpoints} on Jetty 12 with the ee10 (jakarta.servlet 6) environment. */
public final class Jetty12Main {

    private Jetty12Main() {
    }

    public static void main(String[] args) throws Exception {
        Server server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/");
        for (Endpoints.Endpoint endpoint : Endpoints.all()) {
            ServletHolder holder = new ServletHolder(endpoint.name, endpoint.servlet);
            holder.setAsyncSupported(true);
            for (String pattern : endpoint.patterns) {
                context.addServlet(holder, pattern);
            }
        }
        server.setHandler(context);
        server.start();
        ClassVisibility.print(Jetty12Main.class);
        System.out.println("READY port=" + connector.getLocalPort() + " server=jetty/" + Server.getVersion());
        server.join();
    }
}
