package io.argus.plugin.netty3;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.client.ClientCalls;
import io.argus.bridge.state.ObjectField;
import org.jboss.netty.channel.Channel;
import org.jboss.netty.handler.codec.http.HttpChunk;
import org.jboss.netty.handler.codec.http.HttpClientCodec;
import org.jboss.netty.handler.codec.http.HttpHeaders;
import org.jboss.netty.handler.codec.http.HttpRequest;
import org.jboss.netty.handler.codec.http.HttpResponse;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * The requests written on one connection and not yet answered, oldest first (HTTP/1.x answers in
 * order, pipelined or not), kept on the connection's {@code HttpClientCodec}. Requests are added on
 * the writing threads and ended on the I/O thread, so every access holds this object's monitor;
 * the calls are ended outside it. A helper class.
 *
 * <p>The rings are allocated with the first request and double when more requests are in flight
 * than they hold; a request on a connection whose rings are allocated allocates nothing here.
 */
public final class PendingCalls {

    static final String FIELD = "netty3-client.calls";

    /** The pending calls of a codec (one codec per connection). */
    public static final ObjectField<PendingCalls> ON_CODEC = ObjectField.named(FIELD);

    private static final int INITIAL_CAPACITY = 4;

    // all null or 0 until the first request: safe however this object was published
    private long[] startTimes;
    private String[] methods;
    private String[] hosts;
    private ActiveSpan[] spans;
    /** Sequence numbers of the oldest pending call and of the next one; a call's slot is its number modulo the capacity. */
    private long oldest;
    private long next;
    /** The status of a response whose head arrived and whose body is still coming, else 0. */
    private int headStatus;
    private boolean hostKnown;
    private String host;

    /** The codec's pending calls, created with its first request. */
    public static PendingCalls of(HttpClientCodec codec) {
        PendingCalls calls = ON_CODEC.get(codec);
        if (calls == null) {
            synchronized (codec) {
                calls = ON_CODEC.get(codec);
                if (calls == null) {
                    calls = new PendingCalls();
                    ON_CODEC.set(codec, calls);
                }
            }
        }
        return calls;
    }

    /** The pending calls of a context's handler when it is a codec that has any; null otherwise. */
    public static PendingCalls ofHandler(Object handler) {
        return handler instanceof HttpClientCodec ? ON_CODEC.get(handler) : null;
    }

    /**
     * The metrics' host of every request of the connection: the {@code Host} header of its first
     * request without the port, or else the remote address's host string. Read once per connection.
     */
    public synchronized String host(HttpRequest request, Channel channel) {
        if (!hostKnown) {
            // the static helper exists in every Netty 3; HttpMessage#headers() only since 3.8
            String hostHeader = HttpHeaders.getHeader(request, "Host");
            SocketAddress remote = channel.getRemoteAddress();
            if (hostHeader != null) {
                if (hostHeader.startsWith("[")) {
                    int close = hostHeader.indexOf(']');
                    host = close > 0 ? hostHeader.substring(1, close) : hostHeader;
                } else {
                    int colon = hostHeader.indexOf(':');
                    host = colon >= 0 ? hostHeader.substring(0, colon) : hostHeader;
                }
            } else if (remote instanceof InetSocketAddress) {
                host = ((InetSocketAddress) remote).getHostString();
            }
            hostKnown = hostHeader != null || remote != null;
        }
        return host;
    }

    /** Queues a request just written. */
    public synchronized void add(long startNanos, String method, String host, ActiveSpan span) {
        if (startTimes == null || next - oldest >= startTimes.length) {
            grow();
        }
        int slot = (int) (next % startTimes.length);
        startTimes[slot] = startNanos;
        methods[slot] = method;
        hosts[slot] = host;
        spans[slot] = span;
        next++;
    }

    private void grow() {
        int capacity = startTimes == null ? 0 : startTimes.length;
        int grown = capacity == 0 ? INITIAL_CAPACITY : capacity * 2;
        long[] newStartTimes = new long[grown];
        String[] newMethods = new String[grown];
        String[] newHosts = new String[grown];
        ActiveSpan[] newSpans = new ActiveSpan[grown];
        for (long seq = oldest; seq < next; seq++) {
            int from = (int) (seq % capacity);
            int to = (int) (seq % grown);
            newStartTimes[to] = startTimes[from];
            newMethods[to] = methods[from];
            newHosts[to] = hosts[from];
            newSpans[to] = spans[from];
        }
        startTimes = newStartTimes;
        methods = newMethods;
        hosts = newHosts;
        spans = newSpans;
    }

    /**
     * What {@code HttpMessageDecoder.decode} returned ({@code held}: the message the decoder still
     * holds): a response, a chunk, or an array of those. A complete response, or the last chunk of
     * one, ends the oldest call; 1xx interim responses other than 101 are skipped.
     */
    public void decoded(Object decoded, Object held) {
        if (decoded instanceof Object[]) {
            Object[] parts = (Object[]) decoded;
            for (Object part : parts) {
                decodedPart(part, true);
            }
        } else {
            decodedPart(decoded, decoded == held);
        }
    }

    private void decodedPart(Object part, boolean headOnly) {
        if (part instanceof HttpResponse) {
            int status = ((HttpResponse) part).getStatus().getCode();
            if (status >= 100 && status < 200 && status != 101) {
                return;
            }
            boolean bodyFollows = headOnly && status != 101 && status != 204 && status != 205 && status != 304;
            synchronized (this) {
                if (oldest == next) {
                    return;
                }
                String method = methods[(int) (oldest % methods.length)];
                if (bodyFollows && !"HEAD".equals(method) && !(status == 200 && "CONNECT".equals(method))) {
                    headStatus = status;
                    return;
                }
            }
            endOldest(status, null, false);
        } else if (part instanceof HttpChunk && ((HttpChunk) part).isLast()) {
            endOldest(-1, null, false);
        }
    }

    /**
     * Ends every pending call: on an exception that reached the codec ({@code closed} false), or on
     * the connection's close, with the exception the codec threw then, if any.
     */
    public void endAll(Throwable error, boolean closed) {
        while (endOldest(-1, error, closed)) {
            // until none is pending
        }
    }

    /**
     * Ends the oldest pending call, with {@code status}, or for a negative one the status of the
     * head that came before (0 for none). False when no call is pending. Only the I/O thread ends calls.
     */
    private boolean endOldest(int status, Throwable error, boolean closed) {
        long startNanos;
        String method;
        String host;
        ActiveSpan span;
        synchronized (this) {
            if (oldest == next) {
                return false;
            }
            int slot = (int) (oldest % startTimes.length);
            startNanos = startTimes[slot];
            method = methods[slot];
            host = hosts[slot];
            span = spans[slot];
            methods[slot] = null;
            hosts[slot] = null;
            spans[slot] = null;
            if (status < 0) {
                status = headStatus;
            }
            headStatus = 0;
            oldest++;
        }
        if (closed && error == null && status <= 0 && span != null) {
            // traced only: give the span a reason
            error = new IOException("connection closed before the response arrived");
        }
        ClientCalls.end(span, startNanos, method, host, status, error);
        return true;
    }
}
