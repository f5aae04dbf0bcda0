package io.argus.collector.net;

import io.netty.channel.Channel;
import java.net.InetSocketAddress;

/** The peer of a connection, as log lines and agent records name it. */
public final class PeerAddress {
    private PeerAddress() {
    }

    /** {@code 10.0.0.7:53512}, {@code [::1]:53512}. */
    public static String of(Channel channel) {
        if (channel.remoteAddress() instanceof InetSocketAddress inet && inet.getAddress() != null) {
            String host = inet.getAddress().getHostAddress();
            return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + inet.getPort();
        }
        return String.valueOf(channel.remoteAddress());
    }
}
