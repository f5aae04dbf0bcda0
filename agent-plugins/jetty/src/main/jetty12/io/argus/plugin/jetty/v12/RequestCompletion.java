package io.argus.plugin.jetty.v12;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.server.ServerCalls;
import io.argus.plugin.jetty.JettyFields;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;

/** Ends a Jetty 12 request whose response is complete; shared by both completeStream advices. A helper class. */
public final class RequestCompletion {

    private RequestCompletion() {
    }

    public static void end(Request request, Response response, Throwable failure) {
        ActiveSpan span = JettyFields.REQUEST_SPAN.remove(request);
        Throwable error = failure;
        if (span != null) {
            Throwable thrown = JettyFields.REQUEST_ERROR.remove(request);
            if (error == null) {
                error = thrown;
            }
        }
        ServerCalls.end(span, request.getBeginNanoTime(), request.getMethod(), request.getHttpURI().getPath(),
                response.getStatus(), error);
    }
}
