package io.argus.plugin.jaxrs.app;

import com.sun.net.httpserver.HttpServer;
import org.glassfish.jersey.jdkhttp.JdkHttpServerFactory;
import org.glassfish.jersey.server.ResourceConfig;

import java.net.URI;

/**
 * Jersey on the JDK HttpServer, under the base path {@code /shop/api}: {@link OrdersResource} and its
 * sub-resource {@link LinesResource}. Written against javax.ws.rs; the build rewrites it for jakarta.ws.rs.
 */
public final class JerseyApp {

    public static void main(String[] args) {
        ResourceConfig config = new ResourceConfig(OrdersResource.class);
        HttpServer server = JdkHttpServerFactory.createHttpServer(URI.create("http://127.0.0.1:0/shop/api/"), config);
        System.out.println("READY port=" + server.getAddress().getPort());
    }
}
