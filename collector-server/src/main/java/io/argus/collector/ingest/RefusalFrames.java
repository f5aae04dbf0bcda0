package io.argus.collector.ingest;

import io.argus.protocol.CollectorFrame;
import io.argus.protocol.Refusal;
import io.argus.protocol.RefusalReason;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.DuplexChannel;
import io.netty.util.ReferenceCountUtil;
import java.util.concurrent.TimeUnit;

/**
 * Closing an agent connection with a word of why: to an agent that reads replies (its handshake set {@code acks})
 * the collector writes one {@code Refusal} first, so that the agent can log the cause once and back off instead of
 * reconnecting blind. Older agents skip the unknown field; to the others nothing is written, as always.
 *
 * <p>After the refusal the collector half-closes and reads on, discarding, until the agent closes (at most
 * {@value #LINGER_MILLIS} ms). Closing at once with the agent's frames unread makes the kernel answer with a reset,
 * and a reset can discard the refusal in the agent's receive buffer before the agent reads it.
 */
final class RefusalFrames {
    static final long LINGER_MILLIS = 2_000;

    private RefusalFrames() {
    }

    /** The wire's reason for a rejection of the ingest pipeline. */
    static RefusalReason reasonOf(RejectReason reason) {
        return switch (reason) {
            case BAD_TOKEN -> RefusalReason.REFUSAL_REASON_BAD_TOKEN;
            case UNSUPPORTED_PROTOCOL_VERSION -> RefusalReason.REFUSAL_REASON_UNSUPPORTED_PROTOCOL_VERSION;
            case BAD_HANDSHAKE, DUPLICATE_HANDSHAKE, MISSING_HANDSHAKE, HANDSHAKE_TIMEOUT ->
                    RefusalReason.REFUSAL_REASON_BAD_HANDSHAKE;
            case INTERNAL_ERROR -> RefusalReason.REFUSAL_REASON_UNSPECIFIED;
            default -> RefusalReason.REFUSAL_REASON_INVALID_FRAME;
        };
    }

    /** Writes the refusal when the agent reads replies, then closes; else just closes. */
    static void close(Channel ch, RefusalReason reason, String message) {
        if (!IngestAttributes.readsReplies(ch) || !ch.isActive()) {
            ch.close();
            return;
        }
        CollectorFrame refusal = CollectorFrame.newBuilder().setRefusal(Refusal.newBuilder().setReason(reason)
                .setMessage(message.length() > 300 ? message.substring(0, 300) + "..." : message)).build();
        ch.writeAndFlush(refusal).addListener(written -> {
            if (!written.isSuccess() || !(ch instanceof DuplexChannel duplex) || !ch.isActive()) {
                ch.close();
                return;
            }
            ch.pipeline().addFirst(new DiscardUntilClosed());
            ch.eventLoop().schedule(() -> ch.close(), LINGER_MILLIS, TimeUnit.MILLISECONDS);
            duplex.shutdownOutput();
            ch.config().setAutoRead(true);
        });
    }

    /** Head of a refused connection's pipeline: nothing the agent still sends reaches the decoders. */
    private static final class DiscardUntilClosed extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ReferenceCountUtil.release(msg);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
