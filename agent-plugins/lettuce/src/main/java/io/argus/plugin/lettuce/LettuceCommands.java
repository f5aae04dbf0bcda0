package io.argus.plugin.lettuce;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.context.TraceContext;
import io.argus.bridge.db.DatabaseCalls;
import io.argus.bridge.state.LongField;
import io.argus.bridge.state.ObjectField;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandWrapper;
import io.lettuce.core.protocol.ProtocolKeyword;
import io.lettuce.core.protocol.RedisCommand;
import io.netty.channel.Channel;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.RandomAccess;
import java.util.concurrent.CancellationException;

/**
 * A command's start on the caller's thread and its end on the event loop. A helper class: defined in
 * Lettuce's class loader. State lives on the innermost {@code Command} (every API's wrappers,
 * {@code AsyncCommand} and the reactive {@code CommandWrapper}s, complete it): its start time, and the
 * span when traced or else the metrics target, which is made once per endpoint and kept on it.
 */
public final class LettuceCommands {

    static final String START_FIELD = "lettuce.start";
    static final String CALL_FIELD = "lettuce.call";
    static final String TARGET_FIELD = "lettuce.target";
    static final String SYSTEM = "redis";

    public static final LongField START = LongField.named(START_FIELD);
    public static final ObjectField<Object> CALL = ObjectField.named(CALL_FIELD);
    public static final ObjectField<String> TARGET = ObjectField.named(TARGET_FIELD);
    /** What a cancelled command failed with: the span needs only its class. */
    public static final Throwable CANCELLED = new CancellationException("command cancelled");
    /** What the application sees for an error reply ({@code -ERR}, {@code -WRONGTYPE}): the span needs only its class. */
    private static volatile Throwable errorReply;

    private LettuceCommands() {
    }

    public static void written(Object endpoint, Object channel, Object command) {
        if (!(command instanceof RedisCommand)) {
            return;
        }
        @SuppressWarnings({"rawtypes", "unchecked"})
        Object inner = CommandWrapper.unwrap((RedisCommand) command);
        if (!(inner instanceof Command) || START.get(inner) != 0) {
            return; // already started: a command written again
        }
        long start = System.nanoTime();
        String target = target(endpoint, channel);
        ActiveSpan span = null;
        if (TraceContext.current() != null) {
            span = startSpan((Command<?, ?, ?>) inner, target, channel);
        }
        START.set(inner, start == 0 ? 1 : start);
        CALL.set(inner, span != null ? span : target);
    }

    public static void writtenAll(Object endpoint, Object channel, Collection<?> commands) {
        if (commands instanceof List && commands instanceof RandomAccess) {
            List<?> list = (List<?>) commands;
            for (int i = 0, n = list.size(); i < n; i++) {
                written(endpoint, channel, list.get(i));
            }
        } else if (commands != null) {
            for (Iterator<?> it = commands.iterator(); it.hasNext(); ) {
                written(endpoint, channel, it.next());
            }
        }
    }

    /** Ends the command, once, whichever of complete, completeExceptionally and cancel comes first. */
    public static void completed(Object command, Throwable error) {
        long start = START.remove(command);
        if (start == 0 || !(command instanceof Command)) {
            return;
        }
        Object call = CALL.remove(command);
        Command<?, ?, ?> c = (Command<?, ?, ?>) command;
        if (error == null) {
            CommandOutput<?, ?, ?> output = c.getOutput();
            if (output != null && output.hasError()) {
                error = errorReply();
            }
        }
        DatabaseCalls.endCall(call instanceof ActiveSpan ? (ActiveSpan) call : null, start, name(c.getType()),
                call instanceof String ? (String) call : null, error);
    }

    private static ActiveSpan startSpan(Command<?, ?, ?> command, String target, Object channel) {
        String operation = name(command.getType());
        String host = null;
        int port = -1;
        SocketAddress address = channel instanceof Channel ? ((Channel) channel).remoteAddress() : null;
        if (address instanceof InetSocketAddress) {
            host = ((InetSocketAddress) address).getHostString();
            port = ((InetSocketAddress) address).getPort();
        }
        return DatabaseCalls.startCall(null, SYSTEM, operation, LettuceStatements.of(operation, command.getArgs()),
                target, null, host, port);
    }

    /**
     * A command's or keyword's name: the enum constant's ({@code CommandType.GET}, without allocating);
     * else its bytes. Not {@code ProtocolKeyword.name()}: some 6.x releases (6.6) do not have it.
     */
    static String name(ProtocolKeyword keyword) {
        if (keyword instanceof Enum) {
            return ((Enum<?>) keyword).name();
        }
        return keyword == null ? "command" : new String(keyword.getBytes(), StandardCharsets.US_ASCII);
    }

    /** {@code redis://host:port}, made once per endpoint (a connection, or a cluster node's) and kept on it. */
    static String target(Object endpoint, Object channel) {
        String target = TARGET.get(endpoint);
        if (target != null) {
            return target;
        }
        SocketAddress address = channel instanceof Channel ? ((Channel) channel).remoteAddress() : null;
        if (!(address instanceof InetSocketAddress)) {
            return SYSTEM; // not connected yet (or a Unix socket): no server to name
        }
        InetSocketAddress inet = (InetSocketAddress) address;
        target = "redis://" + inet.getHostString() + ":" + inet.getPort();
        TARGET.set(endpoint, target);
        return target;
    }

    private static Throwable errorReply() {
        Throwable error = errorReply;
        if (error == null) {
            error = new RedisCommandExecutionException("error reply");
            errorReply = error;
        }
        return error;
    }
}
