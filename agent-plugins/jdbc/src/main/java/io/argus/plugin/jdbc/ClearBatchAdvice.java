package io.argus.plugin.jdbc;

import io.argus.bridge.db.DatabaseCalls;
import net.bytebuddy.asm.Advice;

/** {@code Statement.clearBatch()}: forget the batch's SQL. */
public final class ClearBatchAdvice {

    private ClearBatchAdvice() {
    }

    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(@Advice.This Object statement) {
        DatabaseCalls.addBatch(statement, null);
    }
}
