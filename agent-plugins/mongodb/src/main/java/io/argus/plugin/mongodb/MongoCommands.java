package io.argus.plugin.mongodb;

import com.mongodb.ServerAddress;
import com.mongodb.connection.ConnectionDescription;
import com.mongodb.internal.async.SingleResultCallback;
import com.mongodb.internal.connection.Connection;
import io.argus.bridge.ActiveSpan;
import io.argus.bridge.Tags;
import io.argus.bridge.context.TraceContext;
import io.argus.bridge.db.DatabaseCalls;
import org.bson.BsonDocument;
import org.bson.BsonValue;

import java.util.concurrent.ConcurrentHashMap;

/**
 * A command's span and metrics. The metrics target, {@code mongodb://host:port/db}, is made once per
 * (server, database) and kept here (bounded); the command's name is the first key of its document. A
 * helper class: defined in the driver's class loader.
 */
public final class MongoCommands {

    static final String SYSTEM = "mongodb";
    private static final int MAX_TARGETS = 1000;
    private static final ConcurrentHashMap<ServerAddress, ConcurrentHashMap<String, String>> TARGETS =
            new ConcurrentHashMap<ServerAddress, ConcurrentHashMap<String, String>>();

    private MongoCommands() {
    }

    /** A synchronous command's span under the thread's current span; null when not traced. */
    public static ActiveSpan start(Object connection, String database, Object command) {
        if (TraceContext.current() == null || !(command instanceof BsonDocument)) {
            return null;
        }
        return startSpan(connection, database, (BsonDocument) command);
    }

    /** Leaves a synchronous command; {@code start} 0: a nested overload, which only leaves. */
    public static void exit(ActiveSpan span, long start, Object connection, String database, Object command,
                            Throwable error) {
        if (start == 0) {
            DatabaseCalls.exitCall(null, 0, null, null, null);
            return;
        }
        DatabaseCalls.exitCall(span, start, operation(command), target(connection, database), error);
    }

    /** Starts an asynchronous command and returns the callback that ends it (the driver's own, once wrapped). */
    @SuppressWarnings("unchecked")
    public static Object startAsync(Object connection, String database, Object command, Object callback) {
        if (!(callback instanceof SingleResultCallback) || callback instanceof MongoCallback) {
            return callback;
        }
        long start = System.nanoTime();
        ActiveSpan span = TraceContext.current() != null && command instanceof BsonDocument
                ? startSpan(connection, database, (BsonDocument) command) : null;
        return new MongoCallback<Object>((SingleResultCallback<Object>) callback, start == 0 ? 1 : start, span,
                operation(command), target(connection, database));
    }

    private static ActiveSpan startSpan(Object connection, String database, BsonDocument command) {
        String operation = command.isEmpty() ? "command" : command.getFirstKey();
        ServerAddress server = server(connection);
        ActiveSpan span = DatabaseCalls.startCall(null, SYSTEM, operation, MongoStatements.of(command),
                target(connection, database), database, server == null ? null : server.getHost(),
                server == null ? -1 : server.getPort());
        if (span != null) {
            String collection = collection(command);
            if (collection != null) {
                span.tag(Tags.DB_COLLECTION, collection);
            }
        }
        return span;
    }

    static String operation(Object command) {
        return command instanceof BsonDocument && !((BsonDocument) command).isEmpty()
                ? ((BsonDocument) command).getFirstKey() : "command";
    }

    /** The collection a command names: the value of its first key (find, insert, aggregate, ...), or getMore's. */
    static String collection(BsonDocument command) {
        BsonValue first = command.get(command.getFirstKey());
        if (first != null && first.isString()) {
            return first.asString().getValue();
        }
        BsonValue named = command.get("collection");
        return named != null && named.isString() ? named.asString().getValue() : null;
    }

    static String target(Object connection, String database) {
        ServerAddress server = server(connection);
        if (server == null) {
            return SYSTEM;
        }
        ConcurrentHashMap<String, String> byDatabase = TARGETS.get(server);
        if (byDatabase == null) {
            if (TARGETS.size() >= MAX_TARGETS) {
                return SYSTEM;
            }
            byDatabase = new ConcurrentHashMap<String, String>();
            ConcurrentHashMap<String, String> raced = TARGETS.putIfAbsent(server, byDatabase);
            if (raced != null) {
                byDatabase = raced;
            }
        }
        String db = database == null ? "" : database;
        String target = byDatabase.get(db);
        if (target == null) {
            target = "mongodb://" + server.getHost() + ":" + server.getPort() + (db.isEmpty() ? "" : "/" + db);
            if (byDatabase.size() < MAX_TARGETS) {
                byDatabase.put(db, target);
            }
        }
        return target;
    }

    private static ServerAddress server(Object connection) {
        if (!(connection instanceof Connection)) {
            return null;
        }
        ConnectionDescription description = ((Connection) connection).getDescription();
        return description == null ? null : description.getServerAddress();
    }
}
