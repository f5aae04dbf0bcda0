package io.argus.collector.ingest;

import io.netty.channel.Channel;
import io.netty.util.AttributeKey;

/**
 * Why an agent connection is not being read. Several stages pause reading for their own reason (the store's queue is
 * full, the frame memory budget is spent, the collector is stopping); reading resumes only once none of them holds
 * it, so one stage's resume never undoes another's pause. Event loop only.
 */
final class ReadGate {
    enum Reason { STORE_FULL, MEMORY, STOPPING }

    private static final AttributeKey<int[]> PAUSED = AttributeKey.valueOf("argus.readPaused");

    private ReadGate() {
    }

    static void pause(Channel ch, Reason reason) {
        int[] mask = mask(ch);
        mask[0] |= 1 << reason.ordinal();
        ch.config().setAutoRead(false);
    }

    static void resume(Channel ch, Reason reason) {
        int[] mask = mask(ch);
        mask[0] &= ~(1 << reason.ordinal());
        if (mask[0] == 0 && ch.isActive()) {
            ch.config().setAutoRead(true);
        }
    }

    /** Whether anything holds reading paused. */
    static boolean paused(Channel ch) {
        int[] mask = ch.attr(PAUSED).get();
        return mask != null && mask[0] != 0;
    }

    private static int[] mask(Channel ch) {
        int[] mask = ch.attr(PAUSED).get();
        if (mask == null) {
            mask = new int[1];
            ch.attr(PAUSED).set(mask);
        }
        return mask;
    }
}
