package io.argus.collector.ingest;

import io.netty.channel.Channel;
import io.netty.util.AttributeKey;
import java.net.InetSocketAddress;
import java.net.SocketAddress;

/** Per-connection state shared by the ingest pipeline stages. */
final class IngestAttributes {
    static final AttributeKey<AgentSession> SESSION = AttributeKey.valueOf("argus.session");
    static final AttributeKey<Boolean> REJECTED = AttributeKey.valueOf("argus.rejected");
    /** The agent's handshake set {@code acks}: it reads what the collector writes back (a refusal, too). */
    static final AttributeKey<Boolean> READS_REPLIES = AttributeKey.valueOf("argus.readsReplies");

    private IngestAttributes() {
    }

    static boolean rejected(Channel ch) {
        return Boolean.TRUE.equals(ch.attr(REJECTED).get());
    }

    static boolean readsReplies(Channel ch) {
        return Boolean.TRUE.equals(ch.attr(READS_REPLIES).get());
    }

    static String remote(Channel ch) {
        return format(ch.remoteAddress());
    }

    static String format(SocketAddress address) {
        if (address instanceof InetSocketAddress inet) {
            String host = inet.getAddress() != null ? inet.getAddress().getHostAddress() : inet.getHostString();
            return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + inet.getPort();
        }
        return String.valueOf(address);
    }
}
