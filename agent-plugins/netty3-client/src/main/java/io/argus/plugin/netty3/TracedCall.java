package io.argus.plugin.netty3;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.client.ClientCalls;
import org.jboss.netty.channel.ChannelHandlerContext;
import org.jboss.netty.handler.codec.http.HttpHeaders;
import org.jboss.netty.handler.codec.http.HttpRequest;
import org.jboss.netty.handler.ssl.SslHandler;

import java.net.InetSocketAddress;
import java.net.SocketAddress;

/** Starts the client span of a request written under a sampled span, and injects its context. A helper class. */
public final class TracedCall {

    private TracedCall() {
    }

    /** The span, or null when not traced; the request's headers then carry its context. */
    public static ActiveSpan start(ChannelHandlerContext ctx, HttpRequest request, String method, String host) {
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
        ActiveSpan span = ClientCalls.start(method, host, port, url);
        ClientCalls.inject(span, request, RequestHeaders.INSTANCE);
        return span;
    }
}
