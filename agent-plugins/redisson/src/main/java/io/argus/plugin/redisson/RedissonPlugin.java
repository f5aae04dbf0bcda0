package io.argus.plugin.redisson;

import io.argus.core.plugin.ArgusPlugin;
import io.argus.core.plugin.Probes;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.matcher.ElementMatcher;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * Redisson 3.17+ and 4.x (the sync, async and reactive APIs alike): a CLIENT span per Redis command and per batch,
 * and database metrics per (command, server). Every command is a {@code RedisExecutor}: {@code execute()} runs on
 * the caller's thread, where the trace context is taken; each attempt is sent when a connection is at hand, often on
 * Netty's threads, where the call starts; the attempt's end ({@code checkAttemptPromise}) ends it.
 */
public final class RedissonPlugin implements ArgusPlugin {

    static final String EXECUTOR = "org.redisson.command.RedisExecutor";
    static final String BATCH_EXECUTOR = "org.redisson.command.RedisCommonBatchExecutor";
    static final String CLIENT = "org.redisson.client.RedisClient";
    private static final String ADVICE = "io.argus.plugin.redisson.";
    private static final String HELPER = ADVICE + "RedissonCalls";
    private static final String CONNECTION = "org.redisson.client.RedisConnection";
    private static final String FUTURE = "java.util.concurrent.CompletableFuture";

    @Override
    public String name() {
        return "redisson";
    }

    @Override
    public void instrument(Probes probes) {
        probes.field(EXECUTOR, RedissonCalls.PARENT_FIELD)
                .field(EXECUTOR, RedissonCalls.CALL_FIELD)
                .longField(EXECUTOR, RedissonCalls.START_FIELD)
                .field(CLIENT, RedissonCalls.TARGET_FIELD);
        // sendCommand(CompletableFuture attempt, RedisConnection connection), overridden by the batch executor
        ElementMatcher.Junction<MethodDescription> sendCommand = named("sendCommand").and(takesArguments(2))
                .and(takesArgument(0, named(FUTURE))).and(takesArgument(1, named(CONNECTION)));
        probes.type(EXECUTOR)
                .helpers(HELPER)
                .advise(named("execute").and(takesArguments(0)), ADVICE + "ExecuteAdvice")
                .advise(sendCommand, ADVICE + "SendAdvice")
                .advise(named("checkAttemptPromise").and(takesArguments(2)), ADVICE + "AttemptEndAdvice");
        probes.type(BATCH_EXECUTOR)
                .helpers(HELPER)
                .advise(sendCommand, ADVICE + "BatchSendAdvice");
    }
}
