package io.argus.plugin.jedis;

import io.argus.core.plugin.ArgusPlugin;
import io.argus.core.plugin.Probes;

import static net.bytebuddy.matcher.ElementMatchers.isPublic;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * Jedis 4.x and 5.x: a CLIENT span per Redis command and database metrics per (command, server). A
 * command of any API (the {@code Jedis} class, {@code JedisPooled}, {@code UnifiedJedis}, cluster)
 * runs as {@code Connection.executeCommand}; a pipeline is one call, {@code Pipeline.sync()}, and a
 * transaction one, {@code Transaction.exec()}/{@code discard()}: each is shown as what it is
 * ({@code PIPELINE}, {@code EXEC}, {@code DISCARD}).
 */
public final class JedisPlugin implements ArgusPlugin {

    static final String CONNECTION = "redis.clients.jedis.Connection";
    private static final String ADVICE = "io.argus.plugin.jedis.";

    @Override
    public String name() {
        return "jedis";
    }

    @Override
    public void instrument(Probes probes) {
        probes.field(CONNECTION, JedisCommands.TARGET_FIELD);
        probes.type(CONNECTION)
                .helpers(ADVICE + "JedisCommands", ADVICE + "JedisStatements")
                .advise(named("executeCommand").and(takesArguments(1))
                                .and(takesArgument(0, named("redis.clients.jedis.CommandObject"))
                                        .or(takesArgument(0, named("redis.clients.jedis.CommandArguments")))),
                        ADVICE + "ExecuteAdvice");
        probes.type("redis.clients.jedis.Pipeline")
                .helpers(ADVICE + "JedisCommands", ADVICE + "JedisStatements")
                .advise(isPublic().and(named("sync").or(named("syncAndReturnAll"))).and(takesArguments(0)),
                        ADVICE + "PipelineAdvice");
        // 4.x: exec/discard in TransactionBase; 5.x: in Transaction
        for (String transaction : new String[] {"redis.clients.jedis.TransactionBase", "redis.clients.jedis.Transaction"}) {
            probes.type(transaction)
                    .helpers(ADVICE + "JedisCommands", ADVICE + "JedisStatements")
                    .advise(isPublic().and(named("exec").or(named("discard"))).and(takesArguments(0)),
                            ADVICE + "TransactionAdvice");
        }
    }
}
