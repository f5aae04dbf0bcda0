package io.argus.core.export;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import static io.argus.core.export.WireFields.*;

/**
 * Decodes what a collector writes back to an agent that asked for acknowledgements: {@code CollectorFrame}s, each a
 * 4-byte big-endian length and the message, read by hand as {@link ProtoWriter} writes (the agent carries no
 * protobuf runtime). Unknown fields are skipped, so a later collector may add some. Exporter thread only.
 */
final class ReplyReader {

    /** Collector frames are a few bytes; a longer one is not a collector talking. */
    static final int MAX_FRAME_BYTES = 4096;

    private static final int WIRE_VARINT = 0;
    private static final int WIRE_FIXED64 = 1;
    private static final int WIRE_LENGTH_DELIMITED = 2;
    private static final int WIRE_FIXED32 = 5;

    /** What the decoded frames say, in order. */
    interface Handler {
        /** The handshake was accepted; {@code acks}: frames will be acknowledged. */
        void handshakeReply(boolean acks);

        /** Every frame after the handshake up to and including number {@code sequence} is handed on. */
        void acknowledged(long sequence);

        /** The collector closes the connection, for {@code reason} (a {@code RefusalReason} value). */
        void refused(int reason, String message);
    }

    /** Bytes read from the collector and not decoded yet, in write mode: the transport reads into it. */
    private final ByteBuffer buffer = ByteBuffer.allocate(4 + MAX_FRAME_BYTES);

    ByteBuffer buffer() {
        return buffer;
    }

    /** Forgets what was read (a new connection). */
    void clear() {
        buffer.clear();
    }

    /**
     * Decodes every complete frame read so far and keeps the rest for the next call.
     *
     * @throws IOException when the bytes are not collector frames
     */
    void decode(Handler handler) throws IOException {
        buffer.flip();
        try {
            while (buffer.remaining() >= 4) {
                int start = buffer.position();
                int length = buffer.getInt(start);
                if (length < 0 || length > MAX_FRAME_BYTES) {
                    throw new IOException("the collector wrote a frame of " + length + " bytes");
                }
                if (buffer.remaining() < 4 + length) {
                    return;
                }
                int end = start + 4 + length;
                buffer.position(start + 4);
                frame(handler, end);
                buffer.position(end);
            }
        } finally {
            buffer.compact();
        }
    }

    private void frame(Handler handler, int end) throws IOException {
        while (buffer.position() < end) {
            long tag = varint(end);
            int field = (int) (tag >>> 3);
            int wireType = (int) (tag & 7);
            if (wireType == WIRE_LENGTH_DELIMITED && field == COLLECTOR_FRAME_REFUSAL) {
                refusal(handler, messageEnd(end));
            } else if (wireType == WIRE_LENGTH_DELIMITED
                    && (field == COLLECTOR_FRAME_HANDSHAKE_REPLY || field == COLLECTOR_FRAME_ACK)) {
                int messageEnd = messageEnd(end);
                long value = varintField(field == COLLECTOR_FRAME_ACK ? ACK_SEQUENCE : HANDSHAKE_REPLY_ACKS,
                        messageEnd);
                if (field == COLLECTOR_FRAME_ACK) {
                    handler.acknowledged(value);
                } else {
                    handler.handshakeReply(value != 0);
                }
            } else {
                skip(wireType, end);
            }
        }
    }

    /** A {@code Refusal}: its reason and message (UTF-8), unknown fields skipped. */
    private void refusal(Handler handler, int end) throws IOException {
        int reason = 0;
        String message = "";
        while (buffer.position() < end) {
            long tag = varint(end);
            int field = (int) (tag >>> 3);
            int wireType = (int) (tag & 7);
            if (field == REFUSAL_REASON && wireType == WIRE_VARINT) {
                reason = (int) varint(end);
            } else if (field == REFUSAL_MESSAGE && wireType == WIRE_LENGTH_DELIMITED) {
                int stringEnd = messageEnd(end);
                byte[] utf8 = new byte[stringEnd - buffer.position()];
                buffer.get(utf8);
                message = new String(utf8, StandardCharsets.UTF_8);
            } else {
                skip(wireType, end);
            }
        }
        handler.refused(reason, message);
    }

    /** The last value of varint field {@code wanted} of the message ending at {@code end}; 0 when absent. */
    private long varintField(int wanted, int end) throws IOException {
        long value = 0;
        while (buffer.position() < end) {
            long tag = varint(end);
            int wireType = (int) (tag & 7);
            if ((int) (tag >>> 3) == wanted && wireType == WIRE_VARINT) {
                value = varint(end);
            } else {
                skip(wireType, end);
            }
        }
        return value;
    }

    private int messageEnd(int end) throws IOException {
        long length = varint(end);
        if (length > end - buffer.position()) {
            throw new IOException("a collector frame's field runs past its end");
        }
        return buffer.position() + (int) length;
    }

    private void skip(int wireType, int end) throws IOException {
        switch (wireType) {
            case WIRE_VARINT:
                varint(end);
                return;
            case WIRE_FIXED64:
                advance(8, end);
                return;
            case WIRE_LENGTH_DELIMITED:
                buffer.position(messageEnd(end));
                return;
            case WIRE_FIXED32:
                advance(4, end);
                return;
            default:
                throw new IOException("the collector wrote wire type " + wireType);
        }
    }

    private void advance(int bytes, int end) throws IOException {
        if (bytes > end - buffer.position()) {
            throw new IOException("a collector frame's field runs past its end");
        }
        buffer.position(buffer.position() + bytes);
    }

    private long varint(int end) throws IOException {
        long value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (buffer.position() >= end) {
                throw new IOException("a collector frame ends inside a number");
            }
            byte b = buffer.get();
            value |= (long) (b & 0x7F) << shift;
            if (b >= 0) {
                return value;
            }
        }
        throw new IOException("the collector wrote a number of more than 10 bytes");
    }
}
