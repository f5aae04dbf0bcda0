package io.argus.plugin.mongodb;

import net.bytebuddy.asm.Advice;
import net.bytebuddy.implementation.bytecode.assign.Assigner;

/**
 * {@code DefaultServerConnection.commandAsync} with 10 arguments (driver 4.x), the overload that runs
 * the command: its callback is wrapped, so the command ends where the driver calls it back.
 */
public final class CommandAsync10Advice {

    private CommandAsync10Advice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.This Object connection, @Advice.Argument(0) String database,
                             @Advice.Argument(1) Object command,
                             @Advice.Argument(value = 9, readOnly = false, typing = Assigner.Typing.DYNAMIC) Object callback) {
        callback = MongoCommands.startAsync(connection, database, command, callback);
    }
}
