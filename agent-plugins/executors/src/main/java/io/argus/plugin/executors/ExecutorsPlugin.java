package io.argus.plugin.executors;

import io.argus.bridge.context.TraceContext;

import io.argus.core.plugin.ArgusPlugin;
import io.argus.core.plugin.Probes;

import java.util.concurrent.Callable;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.FutureTask;
import java.util.concurrent.ThreadPoolExecutor;

import static io.argus.core.plugin.ArgumentMatchers.takesArgumentNamed;
import static io.argus.core.plugin.ArgumentMatchers.takesArgumentsNamed;
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
 *       map (a {@code ForkJoinTask} that loads later gets a real field). A virtual thread (JDK 21+)
 *       is a thread like any other: set in {@code start(ThreadContainer)}, taken in {@code run(Runnable)}
 *       on the virtual thread; the scheduler's own submissions (a virtual thread's continuation
 *       being scheduled on a carrier) carry nothing.</li>
 * </ul>
 * Every probe on a JDK class is applied after the start gate opened ({@code afterGate}): the gate never holds
 * these classes, and the start-up thread retransforms them once the engine is up, at every sampling rate, so
 * that the first traced request does not wait for the retransformation. Jetty's pool is an ordinary probe,
 * woven as it loads (see its probe).
 * The advice sits in {@code java.base}, where no helper class can be defined, so the field is the
 * context domain's own ({@code TraceContext.CARRIED_FIELD}), held by the bridge.
 * Every attach is undone when the task ends, and a {@code ThreadPoolExecutor} worker clears any
 * context its thread inherited before it takes its first task, so an untraced task never sees a
 * stale context.
 */
public final class ExecutorsPlugin implements ArgusPlugin {

    // Class literals, not strings, on purpose: they load the classes before the engine starts. The
    // engine reflects on a class it retransforms (VirtualThread, loaded at startup on JDK 21+, then
    // ForkJoinPool), which loads the classes its signatures name, and a class first loaded during
    // another's transformation is never instrumented (ForkJoinPool and ForkJoinTask on JDK 25).
    static final String THREAD_POOL = ThreadPoolExecutor.class.getName();
    static final String FUTURE_TASK = FutureTask.class.getName();
    static final String FORK_JOIN_POOL = ForkJoinPool.class.getName();
    static final String FORK_JOIN_TASK = ForkJoinTask.class.getName();
    static final String THREAD = "java.lang.Thread";
    /** JDK 21+; absent on older JDKs, where its probes match nothing. */
    static final String VIRTUAL_THREAD = "java.lang.VirtualThread";
    /** Jetty's own thread pool (9.4 to 12), whose workers start lazily, often from a traced request's thread. */
    static final String JETTY_POOL = "org.eclipse.jetty.util.thread.QueuedThreadPool";
    private static final String ADVICE = "io.argus.plugin.executors.";

    @Override
    public String name() {
        return "executors";
    }

    @Override
    public void instrument(Probes probes) {
        probes.field(FORK_JOIN_TASK, TraceContext.CARRIED_FIELD);
        probes.type(THREAD_POOL).afterGate()
                .advise(named("execute").and(takesArgumentsNamed("java.lang.Runnable")), ADVICE + "PoolExecuteAdvice")
                .advise(named("remove").and(takesArgumentsNamed("java.lang.Runnable")), ADVICE + "PoolRemoveAdvice")
                .advise(named("shutdownNow").and(takesArguments(0)), ADVICE + "PoolShutdownNowAdvice")
                .advise(named("runWorker").and(takesArguments(1)), ADVICE + "WorkerStartAdvice");
        probes.type(FUTURE_TASK).afterGate()
                .advise(isConstructor().and(takesArgumentsNamed("java.util.concurrent.Callable")), ADVICE + "FutureTaskCallableAdvice")
                .advise(isConstructor().and(takesArgumentsNamed("java.lang.Runnable", "java.lang.Object")),
                        ADVICE + "FutureTaskRunnableAdvice");
        probes.type(FORK_JOIN_POOL).afterGate()
                .advise(isPublic().and(named("execute").or(named("submit"))).and(takesArgumentNamed(0, "java.lang.Runnable")),
                        ADVICE + "ForkJoinRunnableAdvice")
                .advise(isPublic().and(named("submit")).and(takesArgumentsNamed("java.util.concurrent.Callable")),
                        ADVICE + "ForkJoinCallableAdvice")
                .advise(isPublic().and(named("execute").or(named("submit")).or(named("invoke"))
                                .or(named("externalSubmit")).or(named("lazySubmit")))
                                .and(takesArguments(1)).and(takesArgument(0, named(FORK_JOIN_TASK))),
                        ADVICE + "ForkJoinTaskSubmitAdvice");
        probes.type(FORK_JOIN_TASK).afterGate()
                .advise(named("fork").and(takesArguments(0)), ADVICE + "ForkAdvice")
                .advise(named("doExec").and(takesArguments(0)), ADVICE + "DoExecAdvice");
        if (probes.settings().getBoolean("argus.plugin.executors.threads", true)) {
            probes.field(THREAD, TraceContext.CARRIED_FIELD);
            probes.type(THREAD).afterGate()
                    .advise(named("start"), ADVICE + "ThreadStartAdvice")
                    .advise(named("run").and(takesArguments(0)), ADVICE + "ThreadRunAdvice");
        }
        // VirtualThread overrides start and run: start() calls start(ThreadContainer), which every
        // builder, Executors.newVirtualThreadPerTaskExecutor and StructuredTaskScope.fork reach;
        // run(Runnable) runs the task on the virtual thread itself (JDK 21 and 25), never on its carrier.
        // The class loads at startup, so the context is kept in the field's map, as for Thread.
        probes.type(VIRTUAL_THREAD).afterGate()
                .advise(named("start").and(takesArguments(1)), ADVICE + "ThreadStartAdvice")
                .advise(named("run").and(takesArgumentsNamed("java.lang.Runnable")), ADVICE + "ThreadRunAdvice");
        // a Jetty worker started from a traced thread inherited that context through Thread.start: dropped before
        // each job, as ThreadPoolExecutor's workers drop it in runWorker (jobs reach the pool unwrapped). Not
        // after-gate: the class loads early, so it would be retransformed, and a retransformation's input is the
        // class as the JVM rebuilds it, whose bytes vary from run to run and miss the class cache (a cold weave of
        // ~200 ms on the start-up thread); woven as it loads, it is served from the cache like the server's classes
        probes.type(JETTY_POOL)
                .advise(named("runJob").and(takesArgumentsNamed("java.lang.Runnable")), ADVICE + "WorkerStartAdvice");
    }
}
