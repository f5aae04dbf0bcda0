package io.argus.plugin.jaxrs.app;

import javax.ws.rs.GET;
import javax.ws.rs.Path;
import javax.ws.rs.PathParam;

/** A sub-resource, reached through {@link OrdersResource#lines}: {@code /orders/{id}/lines/{line}}. */
public class LinesResource {

    private final String order;

    LinesResource(String order) {
        this.order = order;
    }

    @GET
    @Path("{line}")
    public String get(@PathParam("line") String line) {
        return "order " + order + " line " + line;
    }
}
