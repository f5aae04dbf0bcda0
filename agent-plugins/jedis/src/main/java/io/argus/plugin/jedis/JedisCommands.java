package io.argus.plugin.jedis;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.context.TraceContext;
import io.argus.bridge.db.DatabaseCalls;
import io.argus.bridge.state.ObjectField;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.CommandObject;
import redis.clients.jedis.commands.ProtocolCommand;

import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketAddress;

/**
 * A command's span and metrics. The metrics target, {@code redis://host:port}, is made once per
 * connection (from its socket, once connected) and kept on it. A helper class: defined in Jedis' class
 * loader.
 */
public final class JedisCommands {

    static final String TARGET_FIELD = "jedis.target";
    static final String SYSTEM = "redis";
    public static final ObjectField<String> TARGET = ObjectField.named(TARGET_FIELD);

    private JedisCommands() {
    }

    public static ActiveSpan start(Object connection, Object command) {
        if (TraceContext.current() == null) {
            return null;
        }
        CommandArguments args = arguments(command);
        String operation = operation(args);
        return startCall(connection, operation, args == null ? operation : JedisStatements.of(operation, args));
    }

    /** A pipeline's or a transaction's span. */
    public static ActiveSpan startBatch(Object connection, String operation) {
        if (TraceContext.current() == null) {
            return null;
        }
        return startCall(connection, operation, operation.equals("PIPELINE") ? operation : "MULTI ... " + operation);
    }

    private static ActiveSpan startCall(Object connection, String operation, String statement) {
        String target = TARGET.get(connection);
        String host = null;
        int port = -1;
        if (target != null) {
            int colon = target.lastIndexOf(':');
            host = target.substring("redis://".length(), colon);
            port = Integer.parseInt(target.substring(colon + 1));
        }
        return DatabaseCalls.startCall(null, SYSTEM, operation, statement, target, null, host, port);
    }

    /**
     * Leaves a call; {@code start} 0: a nested one, which only leaves. {@code socket}: the connection's,
     * read after the call (a connection connects on its first command), or null to use the one known.
     */
    public static void exit(ActiveSpan span, long start, Object connection, Object socket, String operation,
                            Throwable error) {
        if (start == 0) {
            DatabaseCalls.exitCall(null, 0, null, null, null);
            return;
        }
        DatabaseCalls.exitCall(span, start, operation, target(connection, socket), error);
    }

    static String target(Object connection, Object socket) {
        String target = TARGET.get(connection);
        if (target != null) {
            return target;
        }
        SocketAddress address = socket instanceof Socket ? ((Socket) socket).getRemoteSocketAddress() : null;
        if (!(address instanceof InetSocketAddress)) {
            return SYSTEM;
        }
        InetSocketAddress inet = (InetSocketAddress) address;
        target = "redis://" + inet.getHostString() + ":" + inet.getPort();
        TARGET.set(connection, target);
        return target;
    }

    static CommandArguments arguments(Object command) {
        if (command instanceof CommandObject) {
            return ((CommandObject<?>) command).getArguments();
        }
        return command instanceof CommandArguments ? (CommandArguments) command : null;
    }

    public static String operation(Object command) {
        return operation(arguments(command));
    }

    static String operation(CommandArguments args) {
        ProtocolCommand command = args == null ? null : args.getCommand();
        if (command instanceof Enum) {
            return ((Enum<?>) command).name();
        }
        return command == null ? "command" : JedisStatements.text(command.getRaw());
    }

    public static String transactionOperation(String method) {
        return method.equals("discard") ? "DISCARD" : "EXEC";
    }
}
