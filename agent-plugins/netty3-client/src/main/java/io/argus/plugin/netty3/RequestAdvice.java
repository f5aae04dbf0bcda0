package io.argus.plugin.netty3;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.Argus;
import net.bytebuddy.asm.Advice;
import org.jboss.netty.channel.ChannelEvent;
import org.jboss.netty.channel.ChannelHandlerContext;
import org.jboss.netty.channel.MessageEvent;
import org.jboss.netty.handler.codec.http.HttpHeaders;
import org.jboss.netty.handler.codec.http.HttpRequest;
import org.jboss.netty.handler.ssl.SslHandler;

import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * Inlined into {@code org.jboss.netty.handler.codec.http.HttpClientCodec#handleDownstream}: every
 * downstream event of the connection passes here, on the thread that raised it. For a written
 * {@code HttpRequest} (before the codec encodes it) this queues the request in the connection's
 * state: start time, method, host and, when the writing thread has a sampled span, a client span
 * whose {@code traceparent} (and {@code tracestate}) are set in the request's headers.
 *
 * <p>The per-connection state is the attachment of the codec's context, an {@code Object[6]}:
 * <ol start="0">
 *   <li>{@code long[]}: [0] sequence number of the oldest unanswered request, [1] the next sequence
 *       number, [2] the status of a response whose head arrived and whose body is still coming,
 *       [3..] the start times, a ring indexed by sequence number modulo its capacity;</li>
 *   <li>the methods, 2. the hosts, 3. the spans (rings of the same capacity);</li>
 *   <li value="4">what the connection's host was derived from (the {@code Host} header of its first
 *       request, or else its remote address), 5. that host, the metrics' host for every request
 *       of the connection.</li>
 * </ol>
 * It is allocated with the connection's first request and only grows (doubling) when more requests
 * are pipelined than it holds. Writers and the I/O thread synchronize on it. An untraced request on
 * a connection that already has its state allocates nothing here.
 *
 * <p>Advice code is copied into Netty's class: it may use only the bridge, the JDK and Netty 3.
 */
public final class RequestAdvice {

    private RequestAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.Argument(0) ChannelHandlerContext ctx, @Advice.Argument(1) ChannelEvent event) {
        if (!(event instanceof MessageEvent)) {
            return;
        }
        Object message = ((MessageEvent) event).getMessage();
        if (!(message instanceof HttpRequest)) {
            return;
        }
        HttpRequest request = (HttpRequest) message;
        long startNanos = System.nanoTime();

        Object attachment = ctx.getAttachment();
        if (attachment == null) {
            synchronized (ctx) {
                attachment = ctx.getAttachment();
                if (attachment == null) {
                    Object[] created = new Object[6];
                    created[0] = new long[3 + 4];
                    created[1] = new Object[4];
                    created[2] = new Object[4];
                    created[3] = new Object[4];
                    ctx.setAttachment(created);
                    attachment = created;
                }
            }
        }
        if (!(attachment instanceof Object[])) {
            return;
        }
        Object[] state = (Object[]) attachment;
        if (state.length != 6 || !(state[0] instanceof long[])) {
            return; // someone else's attachment: leave the connection alone
        }

        String method = request.getMethod().getName();
        String host;
        Object hostKey;
        synchronized (state) {
            hostKey = state[4];
            host = (String) state[5];
        }
        if (hostKey == null) {
            // once per connection: the Host header of its first request, or else the remote address
            // (the static helpers exist in every Netty 3; HttpMessage#headers() only since 3.8)
            String hostHeader = HttpHeaders.getHeader(request, "Host");
            SocketAddress remote = ctx.getChannel().getRemoteAddress();
            hostKey = hostHeader != null ? hostHeader : remote;
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
            if (hostKey != null) {
                synchronized (state) {
                    state[4] = hostKey;
                    state[5] = host;
                }
            }
        }

        ActiveSpan span = null;
        if (Argus.currentContext() != null) {
            String hostHeader = HttpHeaders.getHeader(request, "Host");
            SocketAddress remote = ctx.getChannel().getRemoteAddress();
            int port = -1;
            if (remote instanceof InetSocketAddress) {
                port = ((InetSocketAddress) remote).getPort();
            } else if (hostHeader != null) {
                int colon = hostHeader.lastIndexOf(':');
                if (colon > 0 && colon > hostHeader.lastIndexOf(']')) {
                    try {
                        port = Integer.parseInt(hostHeader.substring(colon + 1));
                    } catch (NumberFormatException ignored) {
                        port = -1;
                    }
                }
            }
            boolean tls = ctx.getPipeline().get(SslHandler.class) != null;
            if (port < 0) {
                port = tls ? 443 : 80;
            }
            String uri = request.getUri();
            String url;
            if (uri.startsWith("http://") || uri.startsWith("https://")) {
                url = uri; // absolute form, e.g. through a proxy
            } else {
                StringBuilder b = new StringBuilder(64).append(tls ? "https://" : "http://");
                if (hostHeader != null) {
                    b.append(hostHeader);
                } else {
                    b.append(host).append(':').append(port);
                }
                if (!uri.startsWith("/")) {
                    b.append('/');
                }
                url = b.append(uri).toString();
            }
            span = Argus.clientStart(method, host, port, url);
            if (span != null) {
                HttpHeaders.setHeader(request, "traceparent", span.traceparent());
                String tracestate = span.tracestate();
                if (tracestate != null) {
                    HttpHeaders.setHeader(request, "tracestate", tracestate);
                } else if (HttpHeaders.getHeader(request, "tracestate") != null) {
                    HttpHeaders.setHeader(request, "tracestate", java.util.Collections.emptyList()); // removes it
                }
            }
        }

        synchronized (state) {
            long[] nums = (long[]) state[0];
            int capacity = nums.length - 3;
            if (nums[1] - nums[0] >= capacity) {
                // more requests in flight than the rings hold (pipelining): double them
                int grown = capacity * 2;
                long[] newNums = new long[3 + grown];
                Object[] newMethods = new Object[grown];
                Object[] newHosts = new Object[grown];
                Object[] newSpans = new Object[grown];
                Object[] oldMethods = (Object[]) state[1];
                Object[] oldHosts = (Object[]) state[2];
                Object[] oldSpans = (Object[]) state[3];
                for (long seq = nums[0]; seq < nums[1]; seq++) {
                    int from = (int) (seq % capacity);
                    int to = (int) (seq % grown);
                    newNums[3 + to] = nums[3 + from];
                    newMethods[to] = oldMethods[from];
                    newHosts[to] = oldHosts[from];
                    newSpans[to] = oldSpans[from];
                }
                newNums[0] = nums[0];
                newNums[1] = nums[1];
                newNums[2] = nums[2];
                state[0] = newNums;
                state[1] = newMethods;
                state[2] = newHosts;
                state[3] = newSpans;
                nums = newNums;
                capacity = grown;
            }
            int slot = (int) (nums[1] % capacity);
            nums[3 + slot] = startNanos;
            ((Object[]) state[1])[slot] = method;
            ((Object[]) state[2])[slot] = host;
            ((Object[]) state[3])[slot] = span;
            nums[1]++;
        }
    }
}
