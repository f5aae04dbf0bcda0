package io.argus.plugin.executors.app;

import io.argus.testing.app.AgentBridge;
import io.argus.bridge.ActiveSpan;
import io.argus.bridge.context.TraceContext;
import io.argus.bridge.server.ServerCalls;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RecursiveAction;
import java.util.concurrent.RecursiveTask;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The test application: hands work to every kind of JDK executor under a hand-made server span
 * ({@code ServerCalls.start}); each task starts and ends an internal span named {@code task <tag>},
 * which must be a child of that server span. Prints {@code ROOT tag=... traceparent=...
 * expected=N}, {@code STALE tag=... current=...} for untraced tasks run on threads that ran traced
 * ones, and a few behaviour checks, then {@code DONE}.
 */
public final class ExecutorsApp {

    interface Scenario {
        void run(String tag) throws Exception;
    }

    private static final Map<String, Integer> EXPECTED = new TreeMap<>();

    public static void main(String[] args) throws Exception {
        AgentBridge.await(); // this test application names the agent's bridge itself
        // spans that end before the agent has connected to the collector are dropped by design;
        // without plugins to instrument, this application would be done by then
        Thread.sleep(2000);
        ThreadPoolExecutor pool = new ThreadPoolExecutor(2, 2, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>());
        ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1);
        ForkJoinPool forkJoin = new ForkJoinPool(2);

        traced("tpe-execute", 1, tag -> executeAndWait(pool, tag));
        traced("tpe-submit-runnable", 1, tag -> pool.submit((Runnable) () -> span(tag)).get());
        traced("tpe-submit-callable", 1, tag -> pool.submit(() -> {
            span(tag);
            return 1;
        }).get());
        traced("tpe-invoke-all", 2, tag -> {
            List<Callable<Integer>> tasks = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                tasks.add(() -> {
                    span(tag);
                    return 1;
                });
            }
            for (Future<Integer> f : pool.invokeAll(tasks)) {
                f.get();
            }
        });
        traced("stpe-schedule", 1, tag -> scheduler.schedule((Runnable) () -> span(tag), 10, TimeUnit.MILLISECONDS).get());
        traced("stpe-schedule-callable", 1, tag -> scheduler.schedule(() -> {
            span(tag);
            return 1;
        }, 10, TimeUnit.MILLISECONDS).get());
        traced("stpe-execute", 1, tag -> scheduler.submit((Runnable) () -> span(tag)).get());
        traced("stpe-fixed-rate", 2, tag -> {
            AtomicInteger runs = new AtomicInteger();
            CountDownLatch twice = new CountDownLatch(2);
            ScheduledFuture<?> f = scheduler.scheduleAtFixedRate(() -> {
                if (runs.incrementAndGet() <= 2) {
                    span(tag);
                    twice.countDown();
                }
            }, 0, 20, TimeUnit.MILLISECONDS);
            twice.await(30, TimeUnit.SECONDS);
            f.cancel(false);
        });
        traced("fjp-execute", 1, tag -> executeAndWait(forkJoin, tag));
        traced("fjp-submit-callable", 1, tag -> forkJoin.submit(() -> {
            span(tag);
            return 1;
        }).get());
        traced("fjp-invoke-forks", 4, tag -> forkJoin.invoke(new Leaves(tag, 0, 4)));
        traced("fork", 1, tag -> new RecursiveAction() {
            @Override
            protected void compute() {
                span(tag);
            }
        }.fork().get(30, TimeUnit.SECONDS));
        traced("cf-supply-async", 1, tag -> CompletableFuture.supplyAsync(() -> span(tag)).get());
        traced("cf-run-async-executor", 1, tag -> CompletableFuture.runAsync(() -> span(tag), pool).get());
        traced("cf-then-apply-async", 1,
                tag -> CompletableFuture.completedFuture(tag).thenApplyAsync(ExecutorsApp::span).get());
        traced("cf-then-apply-async-executor", 1,
                tag -> CompletableFuture.completedFuture(tag).thenApplyAsync(ExecutorsApp::span, pool).get());
        traced("cf-supply-async-executor", 1, tag -> CompletableFuture.supplyAsync(() -> span(tag), pool).get());
        Executor threadPerRun = r -> new Thread(r, "argus-test-per-run").start();
        traced("cf-run-async-executor-lambda", 1, tag -> CompletableFuture.runAsync(() -> span(tag), threadPerRun).get());
        traced("cf-then-apply-async-executor-lambda", 1,
                tag -> CompletableFuture.completedFuture(tag).thenApplyAsync(ExecutorsApp::span, threadPerRun).get());
        traced("cf-chain", 2, tag -> {
            CountDownLatch release = new CountDownLatch(1);
            CompletableFuture<String> first = CompletableFuture.supplyAsync(() -> {
                await(release);
                return span(tag);
            });
            CompletableFuture<String> second = first.thenApplyAsync(ExecutorsApp::span);
            release.countDown();
            second.get(30, TimeUnit.SECONDS);
        });
        // the shapes of Spring's executors, in JDK code: one that hands work to a ThreadPoolExecutor
        // (ThreadPoolTaskExecutor) and one that starts a thread per task (SimpleAsyncTaskExecutor)
        PoolBacked poolBacked = new PoolBacked(pool);
        traced("pool-backed-execute", 1, tag -> executeAndWait(poolBacked, tag));
        traced("pool-backed-submit", 1, tag -> poolBacked.submit(() -> span(tag)).get());
        traced("cf-supply-async-pool-backed", 1, tag -> CompletableFuture.supplyAsync(() -> span(tag), poolBacked).get());
        ThreadPerTask threadPerTask = new ThreadPerTask(Thread::new);
        traced("thread-per-task-execute", 1, tag -> executeAndWait(threadPerTask, tag));
        traced("thread-per-task-submit", 1, tag -> threadPerTask.submit(() -> span(tag)).get());
        traced("thread-start", 1, tag -> {
            Thread t = new Thread(() -> span(tag), "argus-test-thread");
            t.start();
            t.join();
        });

        // a long-lived thread started during a request: traced while the request lasts, not after
        CountDownLatch requestEnded = new CountDownLatch(1);
        CountDownLatch sawEnd = new CountDownLatch(1);
        boolean[] afterwards = new boolean[1];
        traced("thread-outlives-request", 1, tag -> {
            CountDownLatch spanned = new CountDownLatch(1);
            Thread loop = new Thread(() -> {
                span(tag);
                spanned.countDown();
                await(requestEnded);
                afterwards[0] = current();
                sawEnd.countDown();
            }, "argus-test-long-lived");
            loop.setDaemon(true);
            loop.start();
            spanned.await(30, TimeUnit.SECONDS);
        });
        requestEnded.countDown();
        sawEnd.await(30, TimeUnit.SECONDS);
        stale("thread", afterwards[0]);

        // threads that ran traced work, then run untraced work: no stale context
        ThreadPoolExecutor solo = new ThreadPoolExecutor(1, 1, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>());
        ScheduledThreadPoolExecutor soloScheduler = new ScheduledThreadPoolExecutor(1);
        ForkJoinPool soloForkJoin = new ForkJoinPool(1);
        traced("stale-setup", 4, tag -> {
            solo.execute(() -> span(tag));
            solo.submit(() -> span(tag)).get();
            soloScheduler.schedule(() -> span(tag), 1, TimeUnit.MILLISECONDS).get();
            soloForkJoin.submit(() -> span(tag)).get();
        });
        stale("tpe", solo.submit(ExecutorsApp::current).get());
        stale("stpe", soloScheduler.submit(ExecutorsApp::current).get());
        stale("fjp", soloForkJoin.submit(ExecutorsApp::current).get());
        stale("fjp-task", soloForkJoin.invoke(new RecursiveTask<Boolean>() {
            @Override
            protected Boolean compute() {
                return current();
            }
        }));
        stale("cf", CompletableFuture.supplyAsync(ExecutorsApp::current).get());
        // a Jetty pool whose worker starts during a request: its jobs run without that request's context, even
        // while the request lasts (the worker inherited it through Thread.start)
        QueuedThreadPool jetty = new QueuedThreadPool(2, 1);
        boolean[] jettyJob = new boolean[1];
        traced("jetty-pool-started", 0, tag -> {
            jetty.start();
            CountDownLatch ran = new CountDownLatch(1);
            jetty.execute(() -> {
                jettyJob[0] = current();
                ran.countDown();
            });
            await(ran);
        });
        jetty.stop();
        stale("jetty-pool", jettyJob[0]);
        stale("main", current());

        // behaviour the application can observe is unchanged
        checkQueueAndShutdownNow();
        checkAfterExecuteSeesTheFuture();
        checkPriorityQueueTasksKeepTheirType();

        pool.shutdown();
        scheduler.shutdown();
        forkJoin.shutdown();
        solo.shutdown();
        soloScheduler.shutdown();
        soloForkJoin.shutdown();
        print("DONE");
        Thread.sleep(Long.MAX_VALUE);
    }

    /** An {@code Executor} in front of a {@code ThreadPoolExecutor}, as Spring's {@code ThreadPoolTaskExecutor}. */
    static final class PoolBacked implements Executor {
        private final ThreadPoolExecutor pool;

        PoolBacked(ThreadPoolExecutor pool) {
            this.pool = pool;
        }

        @Override
        public void execute(Runnable task) {
            pool.execute(task);
        }

        <T> Future<T> submit(Callable<T> task) {
            return pool.submit(task);
        }
    }

    /**
     * A thread per task, as Spring's {@code SimpleAsyncTaskExecutor}: {@code submit} hands a
     * {@code FutureTask} to {@code execute}, which starts a thread made by the factory.
     */
    static final class ThreadPerTask implements Executor {
        private final ThreadFactory threads;

        ThreadPerTask(ThreadFactory threads) {
            this.threads = threads;
        }

        @Override
        public void execute(Runnable task) {
            threads.newThread(task).start();
        }

        <T> Future<T> submit(Callable<T> task) {
            FutureTask<T> future = new FutureTask<>(task);
            execute(future);
            return future;
        }
    }

    /** Sums leaves of a range, forking the left half: every leaf makes one span. */
    static final class Leaves extends RecursiveTask<Integer> {
        private final String tag;
        private final int from;
        private final int to;

        Leaves(String tag, int from, int to) {
            this.tag = tag;
            this.from = from;
            this.to = to;
        }

        @Override
        protected Integer compute() {
            if (to - from == 1) {
                span(tag);
                return 1;
            }
            int mid = (from + to) / 2;
            Leaves left = new Leaves(tag, from, mid);
            left.fork();
            return new Leaves(tag, mid, to).compute() + left.join();
        }
    }

    private static void checkQueueAndShutdownNow() throws Exception {
        ThreadPoolExecutor one = new ThreadPoolExecutor(1, 1, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>());
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch busy = new CountDownLatch(1);
        one.execute(() -> {
            busy.countDown();
            await(release);
        });
        busy.await(30, TimeUnit.SECONDS);
        Runnable first = () -> { };
        Runnable second = () -> { };
        long start = System.nanoTime();
        ActiveSpan root = ServerCalls.start("GET", "/queue", null, null);
        one.execute(first);
        one.execute(second);
        ServerCalls.end(root, start, "GET", "/queue", 200, null);
        boolean removed = one.remove(first);
        List<Runnable> left = one.shutdownNow();
        release.countDown();
        print("QUEUE tag=tpe removed=" + removed + " left=" + left.size()
                + " unwrapped=" + (left.size() == 1 && left.get(0) == second));
    }

    /** A task ordered by a priority queue (Druid's PrioritizedExecutorService) must reach the queue as itself. */
    static final class Prioritized implements Runnable, Comparable<Prioritized> {
        final int priority;
        final CountDownLatch done;

        Prioritized(int priority, CountDownLatch done) {
            this.priority = priority;
            this.done = done;
        }

        @Override
        public void run() {
            done.countDown();
        }

        @Override
        public int compareTo(Prioritized o) {
            return Integer.compare(o.priority, priority);
        }
    }

    private static void checkPriorityQueueTasksKeepTheirType() throws Exception {
        ThreadPoolExecutor prioritized = new ThreadPoolExecutor(1, 1, 1, TimeUnit.MINUTES,
                new java.util.concurrent.PriorityBlockingQueue<>());
        CountDownLatch done = new CountDownLatch(3);
        String outcome;
        long start = System.nanoTime();
        ActiveSpan root = ServerCalls.start("GET", "/prioritized", null, null);
        try {
            for (int i = 0; i < 3; i++) {
                prioritized.execute(new Prioritized(i, done));
            }
            outcome = done.await(30, TimeUnit.SECONDS) ? "ran" : "timeout";
        } catch (RuntimeException e) {
            outcome = e.getClass().getSimpleName();
        }
        ServerCalls.end(root, start, "GET", "/prioritized", 200, null);
        prioritized.shutdown();
        print("PRIORITY tag=tpe outcome=" + outcome);
    }

    private static void checkAfterExecuteSeesTheFuture() throws Exception {
        List<String> seen = new ArrayList<>();
        ThreadPoolExecutor watched = new ThreadPoolExecutor(1, 1, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>()) {
            @Override
            protected void afterExecute(Runnable r, Throwable t) {
                synchronized (seen) {
                    seen.add(r instanceof Future ? "future" : r.getClass().getSimpleName());
                }
            }
        };
        long start = System.nanoTime();
        ActiveSpan root = ServerCalls.start("GET", "/after", null, null);
        watched.submit(() -> { }).get();
        ServerCalls.end(root, start, "GET", "/after", 200, null);
        watched.shutdown();
        watched.awaitTermination(30, TimeUnit.SECONDS);
        synchronized (seen) {
            print("AFTER tag=submit seen=" + seen);
        }
    }

    static void traced(String tag, int expected, Scenario scenario) throws Exception {
        long start = System.nanoTime();
        ActiveSpan root = ServerCalls.start("GET", "/" + tag, null, null);
        print("ROOT tag=" + tag + " traceparent=" + (root == null ? "null" : root.traceparent()) + " expected=" + expected);
        try {
            scenario.run(tag);
        } finally {
            ServerCalls.end(root, start, "GET", "/" + tag, 200, null);
        }
        if (TraceContext.current() != null) {
            print("LEAK tag=" + tag);
        }
    }

    /** Hands one task that makes a span to {@code executor} and waits until it has run. */
    static void executeAndWait(Executor executor, String tag) throws InterruptedException {
        CountDownLatch done = new CountDownLatch(1);
        executor.execute(() -> {
            span(tag);
            done.countDown();
        });
        done.await(30, TimeUnit.SECONDS);
    }

    static String span(String tag) {
        ActiveSpan span = TraceContext.startInternal("task " + tag);
        TraceContext.endInternal(span, null);
        return tag;
    }

    static Boolean current() {
        return TraceContext.current() != null;
    }

    static void stale(String tag, boolean current) {
        print("STALE tag=" + tag + " current=" + current);
    }

    static void await(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static void print(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
