package io.argus.plugin.jdbc;

import io.argus.bridge.db.DatabaseCalls;
import net.bytebuddy.asm.Advice;

/** {@code Connection.prepareStatement(sql, ...)} / {@code prepareCall(sql, ...)}: remember the SQL for the statement. */
public final class PrepareAdvice {

    private PrepareAdvice() {
    }

    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(@Advice.This Object connection,
                            @Advice.Argument(0) String sql,
                            @Advice.Return Object statement) {
        DatabaseCalls.statementCreated(statement, connection, sql);
    }
}
