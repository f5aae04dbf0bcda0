package io.argus.plugin.netty4server;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.server.ServerCalls;
import io.argus.bridge.state.ObjectField;
import io.netty.channel.Channel;

/**
 * The requests received on one connection and not yet answered, oldest first (HTTP/1.1 answers in
 * order, pipelined or not), kept on the channel. Requests and responses meet on the channel's event
 * loop, so nothing here locks. Refers to no HTTP class: {@link ChannelInactiveAdvice} uses it where
 * the HTTP codec may be absent. A helper class.
 *
 * <p>Allocated with the connection's first request, with a ring of reusable entries that doubles
 * when more requests are in flight than it holds. An untraced request on a connection that has them allocates nothing here,
 * except the path of a URI with a query string that the connection did not see just before.
 */
public final class UnansweredRequests {

    static final String FIELD = "netty4-http-server.requests";
    /**
     * The route template a framework named for the request the channel is serving (Spring WebFlux on Reactor Netty,
     * which serves a connection's requests one at a time): asynchronous handlers name it on any thread, so it cannot
     * wait on the thread that ends the request, as {@code ServerCalls.route} does. Taken when the oldest request ends.
     */
    static final String ROUTE_FIELD = "netty4-http-server.route";

    /** The unanswered requests of a channel. */
    public static final ObjectField<UnansweredRequests> ON_CHANNEL = ObjectField.named(FIELD);
    public static final ObjectField<String> ROUTE_ON_CHANNEL = ObjectField.named(ROUTE_FIELD);

    private static final int INITIAL_CAPACITY = 4;

    /** A queued request; the entries are reused, as only the event loop touches them. A helper class. */
    static final class Request {
        long startNanos;
        String method;
        String path;
        ActiveSpan span;
    }

    /** The requests from {@code ring[head]} on, {@code count} of them, wrapping around. */
    private Request[] ring = newEntries(new Request[INITIAL_CAPACITY], 0);
    private int head;
    private int count;
    /** The status of the response head written for the oldest request, until its end is written; else 0. */
    private int responseStatus;
    private String lastUri;
    private String lastPath;

    /** The channel's unanswered requests, created with its first request. */
    public static UnansweredRequests of(Channel channel) {
        UnansweredRequests requests = ON_CHANNEL.get(channel);
        if (requests == null) {
            requests = new UnansweredRequests();
            ON_CHANNEL.set(channel, requests);
        }
        return requests;
    }

    /** The span of the latest request while it is unanswered (its body may still be arriving); else null. */
    public ActiveSpan latestSpan() {
        return count > 0 ? latest().span : null;
    }

    /**
     * The path of a request URI: without its query string or fragment, and for the absolute form,
     * only its path. The last URI and its path are kept, so a connection that repeats a URI with a
     * query string does not cut it again.
     */
    public String path(String uri) {
        if (uri.equals(lastUri)) {
            return lastPath;
        }
        int query = uri.indexOf('?');
        int fragment = uri.indexOf('#');
        if (fragment >= 0 && (query < 0 || fragment < query)) {
            query = fragment;
        }
        int from = 0;
        if (uri.startsWith("http://") || uri.startsWith("https://")) {
            // absolute form: keep the path only
            int slash = uri.indexOf('/', uri.indexOf("//") + 2);
            from = slash < 0 || (query >= 0 && slash > query) ? -1 : slash;
        }
        String path;
        if (from < 0) {
            path = "/";
        } else if (query < 0 && from == 0) {
            path = uri;
        } else {
            int end = query < 0 ? uri.length() : query;
            if (lastPath != null && lastPath.length() == end - from && uri.startsWith(lastPath, from)) {
                path = lastPath;
            } else {
                path = uri.substring(from, end);
            }
        }
        if (path.isEmpty()) {
            path = "/";
        }
        lastUri = uri;
        lastPath = path;
        return path;
    }

    /** Queues a request just decoded; its span, if any, follows with {@link #setLatestSpan}. */
    public void add(long startNanos, String method, String path) {
        if (count == ring.length) {
            // more requests in flight than the ring holds (pipelining): double it, oldest first
            Request[] grown = new Request[count * 2];
            for (int i = 0; i < count; i++) {
                grown[i] = ring[(head + i) % count];
            }
            ring = newEntries(grown, count);
            head = 0;
        }
        count++;
        Request request = latest();
        request.startNanos = startNanos;
        request.method = method;
        request.path = path;
    }

    public void setLatestSpan(ActiveSpan span) {
        latest().span = span;
    }

    private Request latest() {
        return ring[(head + count - 1) % ring.length];
    }

    private static Request[] newEntries(Request[] ring, int from) {
        for (int i = from; i < ring.length; i++) {
            ring[i] = new Request();
        }
        return ring;
    }

    /**
     * A response message handed to the encoder: its head ({@code status}, never an interim 1xx but
     * 101), its last content, or both. A head while the previous response is unfinished ends that
     * one first; the last content ends the oldest request with the status of its head.
     */
    public void responseWritten(Channel channel, boolean head, boolean last, int status) {
        if (head && responseStatus != 0) {
            endOldest(channel, responseStatus);
        }
        if (!last) {
            if (count > 0) {
                responseStatus = status;
            }
        } else {
            endOldest(channel, head ? status : responseStatus);
        }
    }

    /** The connection closed: ends every request still unanswered, with the status of its head if one was written, else 0. */
    public void connectionClosed(Channel channel) {
        while (count > 0) {
            endOldest(channel, responseStatus);
        }
    }

    /** Ends the oldest request; nothing when none is unanswered (a response to a request this plugin did not see). */
    private void endOldest(Channel channel, int status) {
        if (count == 0) {
            return;
        }
        Request oldest = ring[head];
        long startNanos = oldest.startNanos;
        ActiveSpan span = oldest.span;
        String method = oldest.method;
        String path = oldest.path;
        oldest.method = null;
        oldest.path = null;
        oldest.span = null;
        head = (head + 1) % ring.length;
        count--;
        responseStatus = 0;
        String route = ROUTE_ON_CHANNEL.get(channel);
        if (route != null) {
            ROUTE_ON_CHANNEL.set(channel, null);
            // named on this thread just before the end, which takes it
            ServerCalls.route(route);
        }
        ServerCalls.end(span, startNanos, method, path, status, null);
    }
}
