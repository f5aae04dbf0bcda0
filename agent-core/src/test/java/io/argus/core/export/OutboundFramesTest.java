package io.argus.core.export;

import io.argus.core.AgentCounters;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The bounded buffer of frames on their way out: span frames are kept until acknowledged, come back in their order
 * after a lost connection, and every span ends up counted once, as sent or as dropped.
 */
class OutboundFramesTest {

    private static final byte[] HANDSHAKE = {0, 0, 0, 1, 9};

    private final AgentCounters counters = new AgentCounters();

    private static byte[] frame(int size, int marker) {
        byte[] frame = new byte[size];
        frame[0] = (byte) marker;
        return frame;
    }

    /** Writes every pending frame in full; returns the first byte (the marker) of each, in order. */
    private static List<Integer> writeAll(OutboundFrames frames) {
        List<Integer> markers = new ArrayList<Integer>();
        ByteBuffer head;
        while ((head = frames.head()) != null) {
            markers.add((int) head.get(head.position()));
            int n = head.remaining();
            head.position(head.limit());
            frames.wrote(n);
        }
        return markers;
    }

    @Test
    void spanFramesAreKeptUntilAcknowledgedAndCountAsSentThen() {
        OutboundFrames frames = new OutboundFrames(counters, 1 << 20);
        frames.connected(HANDSHAKE);
        frames.add(frame(100, 1), 10, true);
        frames.add(frame(50, 2), 0, true); // a metric frame: never kept
        frames.add(frame(100, 3), 20, true);
        assertThat(frames.keptBytes()).isEqualTo(200);
        assertThat(frames.pendingBytes()).as("frames not kept").isEqualTo(HANDSHAKE.length + 50);

        assertThat(counters.unackedSpans.get()).isEqualTo(30);
        assertThat(writeAll(frames)).containsExactly(0, 1, 2, 3);
        assertThat(frames.written()).as("numbered from 1 after the handshake").isEqualTo(3);
        assertThat(frames.pendingBytes()).isZero();
        assertThat(frames.hasUnacked()).isTrue();
        assertThat(counters.sentSpans.get()).as("nothing acknowledged yet").isZero();

        frames.acknowledged(2); // frames 1 and 2
        assertThat(counters.sentSpans.get()).isEqualTo(10);
        assertThat(frames.keptBytes()).isEqualTo(100);
        assertThat(counters.unackedSpans.get()).isEqualTo(20);
        frames.acknowledged(3);
        assertThat(counters.sentSpans.get()).isEqualTo(30);
        assertThat(counters.unackedSpans.get()).isZero();
        assertThat(frames.keptBytes()).isZero();
        assertThat(frames.hasUnacked()).isFalse();
        assertThat(counters.droppedSpans.get()).isZero();
    }

    @Test
    void keptBytesAreBoundedButOneLargeFrameAlwaysFits() {
        OutboundFrames frames = new OutboundFrames(counters, 1000);
        assertThat(frames.canKeep(5000)).as("nothing kept: a frame larger than the bound").isTrue();
        frames.add(frame(600, 1), 1, true);
        assertThat(frames.canKeep(400)).isTrue();
        assertThat(frames.canKeep(401)).isFalse();
        frames.add(frame(400, 2), 1, true);
        assertThat(frames.keptFull()).isTrue();
        assertThat(frames.canKeep(1)).isFalse();
    }

    @Test
    void aLostConnectionBringsTheKeptFramesBackFirstInTheirOrder() {
        OutboundFrames frames = new OutboundFrames(counters, 1 << 20);
        frames.connected(HANDSHAKE);
        frames.add(frame(100, 1), 1, true);
        frames.add(frame(100, 2), 2, true);
        frames.add(frame(30, 3), 0, true); // heartbeat: dropped with the socket
        frames.add(frame(100, 4), 4, true);
        writeAll(frames);
        frames.add(frame(100, 5), 8, true); // accepted, not written yet
        frames.add(frame(30, 6), 0, true);
        ByteBuffer partly = frames.head();
        partly.position(10);
        frames.wrote(10); // a part of frame 5 went out
        frames.acknowledged(1);
        assertThat(counters.sentSpans.get()).isEqualTo(1);

        frames.lost();
        frames.connected(HANDSHAKE);
        assertThat(frames.pendingBytes()).as("the kept frames count as kept").isEqualTo(HANDSHAKE.length);
        assertThat(frames.keptBytes()).isEqualTo(300);
        assertThat(writeAll(frames)).as("handshake, then 2, 4 and 5 whole, in order").containsExactly(0, 2, 4, 5);
        assertThat(frames.written()).as("numbered again on the new connection").isEqualTo(3);
        assertThat(counters.resentSpans.get()).as("2 and 4 had been written before").isEqualTo(6);
        frames.acknowledged(3);
        assertThat(counters.sentSpans.get()).isEqualTo(15);
        assertThat(counters.droppedSpans.get()).isZero();
    }

    @Test
    void withoutAcknowledgementsSpansCountAsSentWhenTakenAndNothingIsKept() {
        OutboundFrames frames = new OutboundFrames(counters, 1 << 20);
        frames.connected(HANDSHAKE);
        frames.add(frame(100, 1), 7, false);
        assertThat(counters.sentSpans.get()).isEqualTo(7);
        assertThat(frames.keptBytes()).isZero();
        writeAll(frames);
        frames.lost();
        frames.connected(HANDSHAKE);
        assertThat(writeAll(frames)).as("only the handshake on the next connection").containsExactly(0);
        assertThat(counters.resentSpans.get()).isZero();
    }

    @Test
    void givingUpOnAcknowledgementsCountsWhatWasKeptAsSent() {
        OutboundFrames frames = new OutboundFrames(counters, 1 << 20);
        frames.connected(HANDSHAKE);
        frames.add(frame(100, 1), 3, true);
        writeAll(frames);
        frames.add(frame(100, 2), 4, true);
        assertThat(frames.pendingBytes()).isZero();
        frames.stopKeeping();
        assertThat(counters.sentSpans.get()).isEqualTo(7);
        assertThat(counters.unackedSpans.get()).isZero();
        assertThat(frames.keptBytes()).isZero();
        assertThat(frames.pendingBytes()).as("not kept any more: bounded as pending").isEqualTo(100);
        assertThat(frames.hasUnacked()).isFalse();
        assertThat(writeAll(frames)).containsExactly(2);
        frames.acknowledged(2); // a late ack changes nothing
        assertThat(counters.sentSpans.get()).isEqualTo(7);
    }

    @Test
    void atExitWhatIsStillUnacknowledgedCountsAsLostAtExit() {
        OutboundFrames frames = new OutboundFrames(counters, 1 << 20);
        frames.connected(HANDSHAKE);
        frames.add(frame(100, 1), 3, true);
        frames.add(frame(100, 2), 0, true);
        writeAll(frames);
        frames.add(frame(100, 3), 4, true);
        assertThat(counters.unackedSpans.get()).isEqualTo(7);
        frames.dropAll();
        assertThat(counters.lostAtExitUnackedSpans.get()).isEqualTo(7);
        assertThat(counters.droppedSpans.get()).isZero();
        assertThat(counters.unackedSpans.get()).isZero();
        assertThat(counters.sentSpans.get()).isZero();
        assertThat(frames.keptBytes()).isZero();
        assertThat(frames.hasPending()).isFalse();
    }
}
