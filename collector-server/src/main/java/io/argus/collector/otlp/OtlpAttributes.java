package io.argus.collector.otlp;

import io.netty.channel.Channel;
import io.netty.util.AttributeKey;

/** Per-connection state shared by the OTLP pipeline stages. */
final class OtlpAttributes {
    /** Whether the request being handled lets the connection stay open after the answer. */
    static final AttributeKey<Boolean> KEEP_ALIVE = AttributeKey.valueOf("argus.otlp.keepAlive");

    /** Set once an answer that closes the connection is on its way: later failures are not reported again. */
    static final AttributeKey<Boolean> CLOSING = AttributeKey.valueOf("argus.otlp.closing");

    private OtlpAttributes() {
    }

    static boolean keepAlive(Channel ch) {
        return !Boolean.FALSE.equals(ch.attr(KEEP_ALIVE).get());
    }
}
