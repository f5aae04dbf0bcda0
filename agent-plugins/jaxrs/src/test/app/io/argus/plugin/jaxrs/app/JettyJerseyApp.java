package io.argus.plugin.jaxrs.app;

import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.servlet.ServletHolder;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.servlet.ServletContainer;

/**
 * Jersey 2 as a servlet on Jetty 9.4: context path {@code /shop}, the servlet mapped at {@code /api/*},
 * so the same routes as {@link JerseyApp} ({@code /shop/api/orders/{id}}) come from the servlet's context
 * path and mapping.
 */
public final class JettyJerseyApp {

    public static void main(String[] args) throws Exception {
        Server server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler(ServletContextHandler.NO_SESSIONS);
        context.setContextPath("/shop");
        context.addServlet(new ServletHolder(new ServletContainer(new ResourceConfig(OrdersResource.class))), "/api/*");
        server.setHandler(context);
        server.start();
        System.out.println("READY port=" + connector.getLocalPort());
    }
}
