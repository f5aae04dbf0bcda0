package io.argus.plugin.mongodb;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.db.DatabaseCalls;
import net.bytebuddy.asm.Advice;

/**
 * {@code DefaultServerConnection.command(database, command, ...)}, every overload: the outermost on the
 * thread records (the short overloads call the long one).
 */
public final class CommandAdvice {

    private CommandAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static long enter(@Advice.This Object connection, @Advice.Argument(0) String database,
                             @Advice.Argument(1) Object command, @Advice.Local("argusSpan") ActiveSpan span) {
        long start = DatabaseCalls.enter();
        if (start != 0) {
            span = MongoCommands.start(connection, database, command);
        }
        return start;
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
    public static void exit(@Advice.Enter long start, @Advice.This Object connection,
                            @Advice.Argument(0) String database, @Advice.Argument(1) Object command,
                            @Advice.Local("argusSpan") ActiveSpan span, @Advice.Thrown Throwable error) {
        MongoCommands.exit(span, start, connection, database, command, error);
    }
}
