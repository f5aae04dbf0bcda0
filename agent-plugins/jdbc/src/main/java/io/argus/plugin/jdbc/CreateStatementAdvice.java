package io.argus.plugin.jdbc;

import io.argus.bridge.db.DatabaseCalls;
import net.bytebuddy.asm.Advice;

/** {@code Connection.createStatement(...)}: remember the statement's connection (its SQL comes with each execution). */
public final class CreateStatementAdvice {

    private CreateStatementAdvice() {
    }

    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(@Advice.This Object connection, @Advice.Return Object statement) {
        DatabaseCalls.statementCreated(statement, connection, null);
    }
}
