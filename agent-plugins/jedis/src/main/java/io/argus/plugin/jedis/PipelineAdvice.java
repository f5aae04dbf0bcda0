package io.argus.plugin.jedis;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.db.DatabaseCalls;
import net.bytebuddy.asm.Advice;

/**
 * {@code Pipeline.sync()}/{@code syncAndReturnAll()}: the queued commands were sent as they came; here
 * their replies are read: one {@code PIPELINE} call.
 */
public final class PipelineAdvice {

    private PipelineAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static long enter(@Advice.FieldValue("connection") Object connection,
                             @Advice.Local("argusSpan") ActiveSpan span) {
        long start = DatabaseCalls.enter();
        if (start != 0) {
            span = JedisCommands.startBatch(connection, "PIPELINE");
        }
        return start;
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
    public static void exit(@Advice.Enter long start, @Advice.FieldValue("connection") Object connection,
                            @Advice.Local("argusSpan") ActiveSpan span,
                            @Advice.Thrown Throwable error) {
        JedisCommands.exit(span, start, connection, null, "PIPELINE", error);
    }
}
