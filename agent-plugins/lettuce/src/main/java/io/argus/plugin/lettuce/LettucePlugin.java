package io.argus.plugin.lettuce;

import io.argus.core.plugin.ArgusPlugin;
import io.argus.core.plugin.Probes;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * Lettuce 6.x (sync, async and reactive APIs alike, and Spring Data Redis on it): a CLIENT span per
 * Redis command and database metrics per (command, server). Every API ends in
 * {@code DefaultEndpoint.write} on the caller's thread, where the command starts; the innermost
 * {@code Command} of every command is completed, failed or cancelled on the event loop, where it ends.
 */
public final class LettucePlugin implements ArgusPlugin {

    static final String ENDPOINT = "io.lettuce.core.protocol.DefaultEndpoint";
    static final String COMMAND = "io.lettuce.core.protocol.Command";
    private static final String ADVICE = "io.argus.plugin.lettuce.";
    private static final String HELPER = ADVICE + "LettuceCommands";
    private static final String STATEMENTS = ADVICE + "LettuceStatements";

    @Override
    public String name() {
        return "lettuce";
    }

    @Override
    public void instrument(Probes probes) {
        probes.longField(COMMAND, LettuceCommands.START_FIELD)
                .field(COMMAND, LettuceCommands.CALL_FIELD)
                .field(ENDPOINT, LettuceCommands.TARGET_FIELD);
        probes.type(ENDPOINT)
                .helpers(HELPER, STATEMENTS)
                .advise(named("write").and(takesArguments(1))
                                .and(takesArgument(0, named("io.lettuce.core.protocol.RedisCommand"))),
                        ADVICE + "WriteAdvice")
                .advise(named("write").and(takesArguments(1)).and(takesArgument(0, named("java.util.Collection"))),
                        ADVICE + "WriteAllAdvice");
        probes.type(COMMAND)
                .helpers(HELPER, STATEMENTS)
                .advise(named("complete").and(takesArguments(0)), ADVICE + "CompleteAdvice")
                .advise(named("completeExceptionally").and(takesArguments(1)), ADVICE + "FailAdvice")
                .advise(named("cancel").and(takesArguments(0)), ADVICE + "CancelAdvice");
    }
}
