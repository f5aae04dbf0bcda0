package io.argus.plugin.jedis;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.db.DatabaseCalls;
import net.bytebuddy.asm.Advice;

/** {@code Connection.executeCommand(CommandObject | CommandArguments)}: send one command, read its reply. */
public final class ExecuteAdvice {

    private ExecuteAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static long enter(@Advice.This Object connection, @Advice.Argument(0) Object command,
                             @Advice.Local("argusSpan") ActiveSpan span) {
        long start = DatabaseCalls.enter();
        if (start != 0) {
            span = JedisCommands.start(connection, command);
        }
        return start;
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
    public static void exit(@Advice.Enter long start, @Advice.This Object connection,
                            @Advice.FieldValue("socket") Object socket, @Advice.Argument(0) Object command,
                            @Advice.Local("argusSpan") ActiveSpan span, @Advice.Thrown Throwable error) {
        JedisCommands.exit(span, start, connection, socket, JedisCommands.operation(command), error);
    }
}
