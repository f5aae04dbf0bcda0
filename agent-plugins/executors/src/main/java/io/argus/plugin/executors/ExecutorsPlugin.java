package io.argus.plugin.executors;

import io.argus.bridge.context.TraceContext;

import io.argus.core.plugin.ArgusPlugin;
import io.argus.core.plugin.Probes;

import java.util.concurrent.Callable;

import static net.bytebuddy.matcher.ElementMatchers.isConstructor;
import static net.bytebuddy.matcher.ElementMatchers.isPublic;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * Carries the current trace context to work handed to the JDK's executors and threads. All probes
 * are exact names of {@code java.base} classes (the engine retransforms them, as they load before
 * the agent). Two techniques, each where it keeps the executor's behaviour intact:
 * <ul>
 *   <li><b>wrapping</b> ({@code TraceContext.wrap}, allocation only when a context exists) for
 *       {@code Runnable}/{@code Callable} tasks: the argument of {@code ThreadPoolExecutor.execute},
 *       of {@code ForkJoinPool.execute/submit}, and of the {@code FutureTask} constructors, which
 *       every {@code submit}/{@code invokeAll}/{@code schedule*} of {@code AbstractExecutorService}
 *       and {@code ScheduledThreadPoolExecutor} goes through. Wrapping inside the {@code FutureTask}
 *       keeps the pool's queue, {@code afterExecute} and {@code shutdownNow()} seeing the
 *       {@code FutureTask}; {@code execute(Runnable)} unwraps in {@code shutdownNow()} and {@code remove}.</li>
 *   <li><b>an object field</b> (the bridge's {@code TraceContext.carry}/{@code takeCarried}, set only when a context exists) for
 *       objects whose type must not change: {@code ForkJoinTask}s (set on submit and {@code fork()},
 *       taken and attached in {@code doExec()}) and {@code Thread}s (set in {@code start()}, taken in
 *       {@code run()}). Both usually load before the agent, so the field lives in the bridge's weak
 *       map (a {@code ForkJoinTask} that loads later gets a real field).</li>
 * </ul>
 * The advice sits in {@code java.base}, where no helper class can be defined, so the field is the
 * context domain's own ({@code TraceContext.CARRIED_FIELD}), held by the bridge.
 * Every attach is undone when the task ends, and a {@code ThreadPoolExecutor} worker clears any
 * context its thread inherited before it takes its first task, so an untraced task never sees a
 * stale context.
 */
public final class ExecutorsPlugin implements ArgusPlugin {

    static final String THREAD_POOL = "java.util.concurrent.ThreadPoolExecutor";
    static final String FUTURE_TASK = "java.util.concurrent.FutureTask";
    static final String FORK_JOIN_POOL = "java.util.concurrent.ForkJoinPool";
    static final String FORK_JOIN_TASK = "java.util.concurrent.ForkJoinTask";
    static final String THREAD = "java.lang.Thread";
    private static final String ADVICE = "io.argus.plugin.executors.";

    @Override
    public String name() {
        return "executors";
    }

    @Override
    public void instrument(Probes probes) {
        probes.field(FORK_JOIN_TASK, TraceContext.CARRIED_FIELD);
        probes.type(THREAD_POOL)
                .advise(named("execute").and(takesArguments(Runnable.class)), ADVICE + "PoolExecuteAdvice")
                .advise(named("remove").and(takesArguments(Runnable.class)), ADVICE + "PoolRemoveAdvice")
                .advise(named("shutdownNow").and(takesArguments(0)), ADVICE + "PoolShutdownNowAdvice")
                .advise(named("runWorker").and(takesArguments(1)), ADVICE + "WorkerStartAdvice");
        probes.type(FUTURE_TASK)
                .advise(isConstructor().and(takesArguments(Callable.class)), ADVICE + "FutureTaskCallableAdvice")
                .advise(isConstructor().and(takesArguments(Runnable.class, Object.class)),
                        ADVICE + "FutureTaskRunnableAdvice");
        probes.type(FORK_JOIN_POOL)
                .advise(isPublic().and(named("execute").or(named("submit"))).and(takesArgument(0, Runnable.class)),
                        ADVICE + "ForkJoinRunnableAdvice")
                .advise(isPublic().and(named("submit")).and(takesArguments(Callable.class)),
                        ADVICE + "ForkJoinCallableAdvice")
                .advise(isPublic().and(named("execute").or(named("submit")).or(named("invoke"))
                                .or(named("externalSubmit")).or(named("lazySubmit")))
                                .and(takesArguments(1)).and(takesArgument(0, named(FORK_JOIN_TASK))),
                        ADVICE + "ForkJoinTaskSubmitAdvice");
        probes.type(FORK_JOIN_TASK)
                .advise(named("fork").and(takesArguments(0)), ADVICE + "ForkAdvice")
                .advise(named("doExec").and(takesArguments(0)), ADVICE + "DoExecAdvice");
        if (probes.settings().config.getBoolean("argus.plugin.executors.threads", true)) {
            probes.field(THREAD, TraceContext.CARRIED_FIELD);
            probes.type(THREAD)
                    .advise(named("start"), ADVICE + "ThreadStartAdvice")
                    .advise(named("run").and(takesArguments(0)), ADVICE + "ThreadRunAdvice");
        }
    }
}
