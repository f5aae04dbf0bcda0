package io.argus.plugin.mongodb;

import io.argus.core.plugin.ArgusPlugin;
import io.argus.core.plugin.Probes;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * The MongoDB Java drivers 4.x and 5.x, sync and reactive-streams alike: a CLIENT span per command
 * and database metrics per (command, {@code mongodb://host:port/db}). Every command of either driver
 * goes through {@code DefaultServerConnection.command} (sync) or {@code commandAsync} (async, under the
 * reactive-streams driver), whose first arguments are the database and the command document. The
 * async driver's connection checkout and server selection may call back on the driver's own threads:
 * their callbacks carry the caller's context there.
 */
public final class MongoPlugin implements ArgusPlugin {

    static final String CONNECTION = "com.mongodb.internal.connection.DefaultServerConnection";
    private static final String ADVICE = "io.argus.plugin.mongodb.";

    @Override
    public String name() {
        return "mongodb";
    }

    @Override
    public void instrument(Probes probes) {
        probes.type(CONNECTION)
                .helpers(ADVICE + "MongoCommands", ADVICE + "MongoStatements", ADVICE + "MongoCallback")
                .advise(named("command").and(takesArgument(0, named("java.lang.String")))
                                .and(takesArgument(1, named("org.bson.BsonDocument"))),
                        ADVICE + "CommandAdvice")
                // the overloads that run the command (the others delegate to them): callback last
                .advise(named("commandAsync").and(takesArguments(9)).and(takesArgument(0, named("java.lang.String")))
                                .and(takesArgument(8, named("com.mongodb.internal.async.SingleResultCallback"))),
                        ADVICE + "CommandAsync9Advice")
                .advise(named("commandAsync").and(takesArguments(10)).and(takesArgument(0, named("java.lang.String")))
                                .and(takesArgument(9, named("com.mongodb.internal.async.SingleResultCallback"))),
                        ADVICE + "CommandAsync10Advice");
        // the async driver's hops to its own threads before a command: the caller's context goes along
        probes.type("com.mongodb.internal.connection.DefaultConnectionPool")
                .helpers(ADVICE + "MongoContextCallback")
                .advise(named("getAsync").and(takesArguments(2))
                                .and(takesArgument(1, named("com.mongodb.internal.async.SingleResultCallback"))),
                        ADVICE + "CarryConnectionCheckoutAdvice");
        probes.type("com.mongodb.internal.connection.BaseCluster")
                .helpers(ADVICE + "MongoContextCallback")
                .advise(named("selectServerAsync").and(takesArguments(3))
                                .and(takesArgument(2, named("com.mongodb.internal.async.SingleResultCallback"))),
                        ADVICE + "CarryServerSelectionAdvice");
    }
}
