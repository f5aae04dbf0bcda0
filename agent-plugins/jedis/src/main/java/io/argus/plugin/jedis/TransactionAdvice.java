package io.argus.plugin.jedis;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.db.DatabaseCalls;
import net.bytebuddy.asm.Advice;

/**
 * {@code Transaction.exec()}/{@code discard()}: the queued commands (sent after {@code MULTI}) run, or are
 * dropped: one {@code EXEC} or {@code DISCARD} call.
 */
public final class TransactionAdvice {

    private TransactionAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static long enter(@Advice.FieldValue("connection") Object connection, @Advice.Origin("#m") String method,
                             @Advice.Local("argusSpan") ActiveSpan span) {
        long start = DatabaseCalls.enter();
        if (start != 0) {
            span = JedisCommands.startBatch(connection, JedisCommands.transactionOperation(method));
        }
        return start;
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
    public static void exit(@Advice.Enter long start, @Advice.FieldValue("connection") Object connection,
                            @Advice.Origin("#m") String method, @Advice.Local("argusSpan") ActiveSpan span,
                            @Advice.Thrown Throwable error) {
        JedisCommands.exit(span, start, connection, null, JedisCommands.transactionOperation(method), error);
    }
}
