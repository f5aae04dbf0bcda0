package io.argus.plugin.servlet.app;

import io.argus.testing.app.ClassVisibility;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.servlet.ServletHolder;

/** The servlets of {@link Endpoints} on Jetty 9.4 (javax.servlet only). */
public final class JettyMain {

    private JettyMain() {
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
        if (java.util.Arrays.asList(args).contains("--throwing-attribute-listener")) {
            // an application listener that fails on every request attribute set: nothing the agent does
            // on the request may leave a span behind on the worker thread because of it
            context.addEventListener(new javax.servlet.ServletRequestAttributeListener() {
                @Override
                public void attributeAdded(javax.servlet.ServletRequestAttributeEvent event) {
                    throw new IllegalStateException("attribute listener fails: " + event.getName());
                }

                @Override
                public void attributeRemoved(javax.servlet.ServletRequestAttributeEvent event) {
                    throw new IllegalStateException("attribute listener fails: " + event.getName());
                }

                @Override
                public void attributeReplaced(javax.servlet.ServletRequestAttributeEvent event) {
                    throw new IllegalStateException("attribute listener fails: " + event.getName());
                }
            });
        }
        server.setHandler(context);
        server.start();
        ClassVisibility.print(JettyMain.class);
        System.out.println("READY port=" + connector.getLocalPort() + " server=jetty/" + Server.getVersion());
        server.join();
    }
}
