package io.argus.plugin.jdbc;

import io.argus.bridge.Argus;
import net.bytebuddy.asm.Advice;

/** {@code Statement.clearBatch()}: forget the batch's SQL. */
public final class ClearBatchAdvice {

    private ClearBatchAdvice() {
    }

    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(@Advice.This Object statement) {
        Argus.dbAddBatch(statement, null);
    }
}
