package io.argus.plugin.netty4server;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.Argus;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.util.Attribute;
import io.netty.util.AttributeKey;
import net.bytebuddy.asm.Advice;

import java.util.List;

/**
 * Inlined into {@code io.netty.handler.codec.http.HttpObjectDecoder#decode(ctx, buffer, out)}, on the
 * channel's event loop; acts only on request decoders ({@code HttpRequestDecoder}, which
 * {@code HttpServerCodec} uses). A decode call yields at most one request head (plus its content),
 * and {@code ByteToMessageDecoder} passes the call's output to the next handlers before it decodes
 * again, so:
 * <ul>
 *   <li>on enter, the span of the connection's latest unanswered request (whose body may be what is
 *       being decoded now, e.g. for {@code HttpObjectAggregator}) is made current;</li>
 *   <li>on exit, for a decoded {@code HttpRequest}: that context is undone, the inbound trace
 *       headers are read, {@code Argus.serverStart} starts the server span (current while the
 *       handlers see the request) and the request is queued in the connection's state.</li>
 * </ul>
 * {@code ByteToMessageDecoder}'s own advice ({@link ContextGuardAdvice}) restores the event loop's
 * context after the inbound event.
 *
 * <p>The connection's state is the channel attribute {@code io.argus.netty4.http.server}, an
 * {@code Object[6]}: [0] {@code long[]} (sequence of the oldest unanswered request, next sequence,
 * status of the response being written, then the start times as a ring), [1] methods, [2] paths,
 * [3] spans (rings of the same capacity), [4] the last request URI and [5] its path (without the
 * query), so a connection that repeats a URI with a query string does not cut it again. The state
 * is allocated with the connection's first request and grows only for deep pipelining. An untraced
 * request allocates nothing here, except the path of a URI with a query string the connection has
 * not seen just before.
 */
public final class DecodeAdvice {

    private DecodeAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static int enter(@Advice.This Object decoder, @Advice.Argument(0) ChannelHandlerContext ctx,
                            @Advice.Argument(2) List<Object> out, @Advice.Local("argusPrevious") Object previous) {
        if (!(decoder instanceof HttpRequestDecoder)) {
            return -1;
        }
        previous = Argus.currentContext();
        Channel channel = ctx.channel();
        AttributeKey<Object> key = AttributeKey.valueOf("io.argus.netty4.http.server");
        if (channel.hasAttr(key)) {
            Object attached = channel.attr(key).get();
            if (attached instanceof Object[]) {
                Object[] state = (Object[]) attached;
                if (state.length == 6 && state[0] instanceof long[]) {
                    long[] nums = (long[]) state[0];
                    if (nums[0] < nums[1]) {
                        Object latest = ((Object[]) state[3])[(int) ((nums[1] - 1) % (nums.length - 3))];
                        if (latest != null && latest != previous) {
                            Argus.attachContext(latest);
                        }
                    }
                }
            }
        }
        return out.size();
    }

    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(@Advice.Argument(0) ChannelHandlerContext ctx, @Advice.Argument(2) List<Object> out,
                            @Advice.Enter int sizeBefore, @Advice.Local("argusPrevious") Object previous) {
        if (sizeBefore < 0) {
            return;
        }
        int size = out.size();
        for (int i = sizeBefore; i < size; i++) {
            Object decoded = out.get(i);
            if (!(decoded instanceof HttpRequest)) {
                continue;
            }
            HttpRequest request = (HttpRequest) decoded;
            long startNanos = System.nanoTime();

            Attribute<Object> attribute = ctx.channel().attr(AttributeKey.<Object>valueOf("io.argus.netty4.http.server"));
            Object attached = attribute.get();
            if (attached == null) {
                Object[] created = new Object[6];
                created[0] = new long[3 + 4];
                created[1] = new Object[4];
                created[2] = new Object[4];
                created[3] = new Object[4];
                attribute.set(created);
                attached = created;
            }
            if (!(attached instanceof Object[])) {
                return;
            }
            Object[] state = (Object[]) attached;
            if (state.length != 6 || !(state[0] instanceof long[])) {
                return;
            }

            String method = request.method().name();
            String uri = request.uri();
            String path;
            if (uri.equals(state[4])) {
                path = (String) state[5];
            } else {
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
                String cached = (String) state[5];
                if (from < 0) {
                    path = "/";
                } else if (query < 0 && from == 0) {
                    path = uri;
                } else {
                    int end = query < 0 ? uri.length() : query;
                    if (cached != null && cached.length() == end - from && uri.startsWith(cached, from)) {
                        path = cached;
                    } else {
                        path = uri.substring(from, end);
                    }
                }
                if (path.isEmpty()) {
                    path = "/";
                }
                state[4] = uri;
                state[5] = path;
            }

            HttpHeaders headers = request.headers();
            String traceparent = headers.get("traceparent");
            String tracestate = null;
            String b3 = null;
            if (traceparent != null) {
                tracestate = headers.get("tracestate");
            } else {
                b3 = headers.get("b3");
                if (b3 == null) {
                    String traceId = headers.get("X-B3-TraceId");
                    if (traceId != null) {
                        b3 = Argus.b3Multi(traceId, headers.get("X-B3-SpanId"), headers.get("X-B3-Sampled"));
                    }
                }
            }
            // the previous request's span (made current on enter) must not become this one's parent
            Argus.restoreContext(previous);
            ActiveSpan span = Argus.serverStart(method, path, traceparent, tracestate, b3);

            long[] nums = (long[]) state[0];
            int capacity = nums.length - 3;
            if (nums[1] - nums[0] >= capacity) {
                // more requests in flight than the rings hold (pipelining): double them
                int grown = capacity * 2;
                long[] newNums = new long[3 + grown];
                Object[] newMethods = new Object[grown];
                Object[] newPaths = new Object[grown];
                Object[] newSpans = new Object[grown];
                Object[] oldMethods = (Object[]) state[1];
                Object[] oldPaths = (Object[]) state[2];
                Object[] oldSpans = (Object[]) state[3];
                for (long seq = nums[0]; seq < nums[1]; seq++) {
                    int from = (int) (seq % capacity);
                    int to = (int) (seq % grown);
                    newNums[3 + to] = nums[3 + from];
                    newMethods[to] = oldMethods[from];
                    newPaths[to] = oldPaths[from];
                    newSpans[to] = oldSpans[from];
                }
                newNums[0] = nums[0];
                newNums[1] = nums[1];
                newNums[2] = nums[2];
                state[0] = newNums;
                state[1] = newMethods;
                state[2] = newPaths;
                state[3] = newSpans;
                nums = newNums;
                capacity = grown;
            }
            int slot = (int) (nums[1] % capacity);
            nums[3 + slot] = startNanos;
            ((Object[]) state[1])[slot] = method;
            ((Object[]) state[2])[slot] = path;
            ((Object[]) state[3])[slot] = span;
            nums[1]++;
        }
    }
}
