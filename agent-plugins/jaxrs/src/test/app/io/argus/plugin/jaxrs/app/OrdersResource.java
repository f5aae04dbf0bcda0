package io.argus.plugin.jaxrs.app;

import javax.ws.rs.GET;
import javax.ws.rs.Path;
import javax.ws.rs.PathParam;

/** {@code /orders}, {@code /orders/{id}} (id {@code boom} throws: a 500), and the locator {@code /orders/{id}/lines}. */
@Path("orders")
public class OrdersResource {

    @GET
    public String list() {
        return "orders";
    }

    @GET
    @Path("{id}")
    public String get(@PathParam("id") String id) {
        if (id.equals("boom")) {
            throw new IllegalStateException("boom");
        }
        return "order " + id;
    }

    @Path("{id}/lines")
    public LinesResource lines(@PathParam("id") String id) {
        return new LinesResource(id);
    }
}
