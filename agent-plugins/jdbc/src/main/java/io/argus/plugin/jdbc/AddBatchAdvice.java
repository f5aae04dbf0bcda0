package io.argus.plugin.jdbc;

import io.argus.bridge.db.DatabaseCalls;
import net.bytebuddy.asm.Advice;

/** {@code Statement.addBatch(sql)}: the batch's first SQL gives {@code executeBatch} its statement type. */
public final class AddBatchAdvice {

    private AddBatchAdvice() {
    }

    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(@Advice.This Object statement, @Advice.Argument(0) String sql) {
        DatabaseCalls.addBatch(statement, sql);
    }
}
