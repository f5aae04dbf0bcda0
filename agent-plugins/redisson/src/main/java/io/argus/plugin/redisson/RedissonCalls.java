package io.argus.plugin.redisson;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.context.TraceContext;
import io.argus.bridge.db.DatabaseCalls;
import io.argus.bridge.state.LongField;
import io.argus.bridge.state.ObjectField;
import org.redisson.client.RedisClient;
import org.redisson.client.RedisConnection;
import org.redisson.client.protocol.RedisCommand;

import java.net.InetSocketAddress;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * A command's trace context on the caller's thread, its attempts' start where they are sent and their end where
 * Redisson checks them. A helper class: defined in Redisson's class loader. State lives on the
 * {@code RedisExecutor} (one per command, or per batch): the caller's context when it had one, the attempt's start
 * and its span when traced or else the metrics target, which is made once per server and kept on its
 * {@code RedisClient}.
 */
public final class RedissonCalls {

    static final String PARENT_FIELD = "redisson.parent";
    static final String CALL_FIELD = "redisson.call";
    static final String START_FIELD = "redisson.start";
    static final String TARGET_FIELD = "redisson.target";
    static final String SYSTEM = "redis";
    static final String BATCH = "PIPELINE";
    /** Arguments looked at for a traced command's statement; {@code DatabaseCalls.statement} counts the rest. */
    private static final int SHOWN_ARGS = 32;

    public static final ObjectField<Object> PARENT = ObjectField.named(PARENT_FIELD);
    public static final ObjectField<Object> CALL = ObjectField.named(CALL_FIELD);
    public static final LongField START = LongField.named(START_FIELD);
    public static final ObjectField<String> TARGET = ObjectField.named(TARGET_FIELD);

    private RedissonCalls() {
    }

    /** The first {@code execute()} is the caller's; retries and redirects run it again on Redisson's threads. */
    public static void executed(Object executor) {
        if (PARENT.get(executor) != null) {
            return;
        }
        Object context = TraceContext.current();
        if (context != null) {
            PARENT.set(executor, context);
        }
    }

    public static void sent(Object executor, Object command, Object[] params, Object connection) {
        if (!(command instanceof RedisCommand)) {
            return; // a batch: its own executor's advice records it
        }
        String operation = ((RedisCommand<?>) command).getName();
        start(executor, operation, params, connection);
    }

    public static void batchSent(Object executor, Object connection) {
        start(executor, BATCH, null, connection);
    }

    private static void start(Object executor, String operation, Object[] params, Object connection) {
        if (START.get(executor) != 0 || !(connection instanceof RedisConnection)) {
            return; // an attempt under way: the next starts once it has ended
        }
        long start = System.nanoTime();
        RedisClient client = ((RedisConnection) connection).getRedisClient();
        String target = target(client);
        Object parent = PARENT.get(executor);
        ActiveSpan span = null;
        if (parent != null) {
            InetSocketAddress address = client == null ? null : client.getAddr();
            span = DatabaseCalls.startCall(parent, SYSTEM, operation, statement(operation, params), target, null,
                    address == null ? null : address.getHostString(), address == null ? -1 : address.getPort());
        }
        START.set(executor, start == 0 ? 1 : start);
        CALL.set(executor, span != null ? span : target);
    }

    /** Ends the attempt that was sent, once; an attempt that never got a connection was not started. */
    public static void attemptEnded(Object executor, Object command, Object attempt) {
        long start = START.remove(executor);
        if (start == 0) {
            return;
        }
        Object call = CALL.remove(executor);
        String operation = command instanceof RedisCommand ? ((RedisCommand<?>) command).getName() : BATCH;
        DatabaseCalls.endCall(call instanceof ActiveSpan ? (ActiveSpan) call : null, start, operation,
                call instanceof String ? (String) call : null, failure(attempt));
    }

    /** Keys, script text and numbers are shown; values (encoded by the codec into buffers) and the rest hidden. */
    static String statement(String operation, Object[] params) {
        if (params == null || params.length == 0) {
            return operation;
        }
        Object[] shown = new Object[Math.min(params.length, SHOWN_ARGS)];
        for (int i = 0; i < shown.length; i++) {
            Object p = params[i];
            shown[i] = p instanceof String || p instanceof Number ? p.toString() : null;
        }
        return DatabaseCalls.statement(operation, shown, params.length);
    }

    /** {@code redis://host:port}, made once per server and kept on its client. */
    static String target(RedisClient client) {
        if (client == null) {
            return SYSTEM;
        }
        String target = TARGET.get(client);
        if (target != null) {
            return target;
        }
        InetSocketAddress address = client.getAddr();
        if (address == null) {
            return SYSTEM;
        }
        target = "redis://" + address.getHostString() + ":" + address.getPort();
        TARGET.set(client, target);
        return target;
    }

    static Throwable failure(Object attempt) {
        if (!(attempt instanceof CompletableFuture) || !((CompletableFuture<?>) attempt).isCompletedExceptionally()) {
            return null;
        }
        try {
            ((CompletableFuture<?>) attempt).getNow(null);
            return null;
        } catch (CancellationException e) {
            return e;
        } catch (CompletionException e) {
            return e.getCause() != null ? e.getCause() : e;
        }
    }
}
