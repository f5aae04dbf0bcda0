package io.argus.plugin.tomcat;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.server.ServerCalls;
import org.apache.catalina.connector.CoyoteAdapter;
import org.apache.catalina.connector.Request;
import org.apache.coyote.Response;

/** The end of a Tomcat request, shared by the service and async-dispatch advice. A helper class. */
public final class RequestEnd {

    private RequestEnd() {
    }

    /** Whether the request is still async: its end comes with a later {@code asyncDispatch}. */
    public static boolean stillAsync(org.apache.coyote.Request request, Throwable thrown) {
        Object adapterNote = request.getNote(CoyoteAdapter.ADAPTER_NOTES);
        return thrown == null && adapterNote instanceof Request && ((Request) adapterNote).isAsync();
    }

    /** Records the request with the coyote response's final status and ends its span, if any. */
    public static void end(org.apache.coyote.Request request, Response response, long startNanos, Throwable thrown) {
        ActiveSpan span = TomcatFields.REQUEST_SPAN.remove(request);
        Throwable error = TomcatFields.REQUEST_ERROR.remove(request);
        String method = TomcatFields.REQUEST_METHOD.get(request);
        String path = TomcatFields.REQUEST_PATH.get(request);
        ServerCalls.end(span, startNanos, method != null ? method : request.method().toString(),
                path != null ? path : request.requestURI().toString(), response.getStatus(),
                error != null ? error : thrown);
    }
}
