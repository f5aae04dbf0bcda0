package io.argus.plugin.mongodb;

import net.bytebuddy.asm.Advice;
import net.bytebuddy.implementation.bytecode.assign.Assigner;

/**
 * {@code DefaultServerConnection.commandAsync} with 9 arguments (driver 5.x), the overload that runs
 * the command: its callback is wrapped, so the command ends where the driver calls it back.
 */
public final class CommandAsync9Advice {

    private CommandAsync9Advice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.This Object connection, @Advice.Argument(0) String database,
                             @Advice.Argument(1) Object command,
                             @Advice.Argument(value = 8, readOnly = false, typing = Assigner.Typing.DYNAMIC) Object callback) {
        callback = MongoCommands.startAsync(connection, database, command, callback);
    }
}
