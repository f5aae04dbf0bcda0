package io.argus.plugin.executors.app;

import io.argus.testing.app.AgentBridge;
import io.argus.bridge.ActiveSpan;
import io.argus.bridge.server.ServerCalls;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static io.argus.plugin.executors.app.ExecutorsApp.await;
import static io.argus.plugin.executors.app.ExecutorsApp.current;
import static io.argus.plugin.executors.app.ExecutorsApp.executeAndWait;
import static io.argus.plugin.executors.app.ExecutorsApp.print;
import static io.argus.plugin.executors.app.ExecutorsApp.span;
import static io.argus.plugin.executors.app.ExecutorsApp.stale;
import static io.argus.plugin.executors.app.ExecutorsApp.traced;

/**
 * The test application for virtual threads (JDK 21+, compiled apart from the Maven test classes):
 * the same lines as {@link ExecutorsApp}. Run with {@code -Djdk.virtualThreadScheduler.parallelism=1}
 * (one carrier, so every check of the carrier sees the thread that ran the traced virtual
 * threads) and {@code --add-opens java.base/java.lang=ALL-UNNAMED} (to reach the scheduler); the
 * argument {@code scope} adds {@code StructuredTaskScope.fork} (a preview API: {@code --enable-preview}).
 */
public final class VirtualThreadsApp {

    public static void main(String[] args) throws Exception {
        AgentBridge.await(); // this test application names the agent's bridge itself
        // spans that end before the agent has connected to the collector are dropped by design
        Thread.sleep(2000);
        awaitVirtualThreadsInstrumented();
        ExecutorService perTask = Executors.newVirtualThreadPerTaskExecutor();
        ForkJoinPool scheduler = scheduler();

        traced("vt-of-virtual-start", 1, tag -> Thread.ofVirtual().start(() -> span(tag)).join());
        traced("vt-unstarted-start", 1, tag -> {
            Thread thread = Thread.ofVirtual().unstarted(() -> span(tag));
            thread.start();
            thread.join();
        });
        traced("vt-start-virtual-thread", 1, tag -> Thread.startVirtualThread(() -> span(tag)).join());
        traced("vt-factory", 1, tag -> {
            Thread thread = Thread.ofVirtual().name("argus-vt-", 0).factory().newThread(() -> span(tag));
            thread.start();
            thread.join();
        });
        traced("vt-executor-submit", 1, tag -> perTask.submit(() -> span(tag)).get());
        traced("vt-executor-submit-runnable", 1, tag -> perTask.submit((Runnable) () -> span(tag)).get());
        traced("vt-executor-execute", 1, tag -> executeAndWait(perTask, tag));
        traced("vt-executor-invoke-all", 2, tag -> {
            List<Callable<String>> tasks = new ArrayList<>();
            tasks.add(() -> span(tag));
            tasks.add(() -> span(tag));
            for (Future<String> f : perTask.invokeAll(tasks)) {
                f.get();
            }
        });
        // unmounted and mounted again, maybe on another carrier: the context stays with the virtual thread
        traced("vt-parks", 3, tag -> Thread.ofVirtual().start(() -> {
            span(tag);
            sleep(20);
            span(tag);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
            Thread.yield();
            span(tag);
        }).join());
        traced("vt-nested", 2, tag -> Thread.ofVirtual().start(() -> {
            span(tag);
            join(Thread.ofVirtual().start(() -> span(tag)));
        }).join());
        traced("vt-from-pool-task", 1, tag -> CompletableFuture.runAsync(
                () -> join(Thread.ofVirtual().start(() -> span(tag)))).get());
        traced("cf-supply-async-vt-executor", 1, tag -> CompletableFuture.supplyAsync(() -> span(tag), perTask).get());
        traced("cf-then-apply-async-vt-executor", 1,
                tag -> CompletableFuture.completedFuture(tag).thenApplyAsync(ExecutorsApp::span, perTask).get());
        // Spring's SimpleAsyncTaskExecutor on virtual threads: a thread per task from a virtual-thread factory
        ExecutorsApp.ThreadPerTask virtualPerTask = new ExecutorsApp.ThreadPerTask(
                Thread.ofVirtual().name("argus-async-", 0).factory());
        traced("vt-thread-per-task-submit", 1, tag -> virtualPerTask.submit(() -> span(tag)).get());
        traced("cf-run-async-vt-thread-per-task", 1,
                tag -> CompletableFuture.runAsync(() -> span(tag), virtualPerTask).get());
        if (List.of(args).contains("scope")) {
            traced("vt-structured-fork", 2, VirtualThreadsApp::forkTwice);
        }

        // the carrier runs no traced work: not while a traced virtual thread is parked, nor after
        CountDownLatch parked = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        boolean[] carrierWhileParked = new boolean[1];
        traced("vt-parked", 2, tag -> {
            Thread thread = Thread.ofVirtual().start(() -> {
                span(tag);
                parked.countDown();
                await(release);
                span(tag);
            });
            parked.await(30, TimeUnit.SECONDS);
            carrierWhileParked[0] = scheduler.submit(ExecutorsApp::current).get();
            release.countDown();
            thread.join();
        });
        stale("carrier-while-parked", carrierWhileParked[0]);

        // a virtual thread started during a request: traced while the request lasts, not after
        CountDownLatch requestEnded = new CountDownLatch(1);
        boolean[] afterwards = new boolean[1];
        Thread[] outliving = new Thread[1];
        traced("vt-outlives-request", 1, tag -> {
            CountDownLatch spanned = new CountDownLatch(1);
            outliving[0] = Thread.ofVirtual().start(() -> {
                span(tag);
                spanned.countDown();
                await(requestEnded);
                afterwards[0] = current();
            });
            spanned.await(30, TimeUnit.SECONDS);
        });
        requestEnded.countDown();
        outliving[0].join();
        stale("vt-outlives-request", afterwards[0]);

        stale("carrier", scheduler.submit(ExecutorsApp::current).get());
        boolean[] untraced = new boolean[1];
        Thread.ofVirtual().start(() -> untraced[0] = current()).join();
        stale("vt", untraced[0]);
        stale("vt-executor", perTask.submit(ExecutorsApp::current).get());
        stale("main", current());

        perTask.shutdown();
        print("DONE");
        Thread.sleep(Long.MAX_VALUE);
    }

    /** {@code StructuredTaskScope}: {@code open()} on JDK 25, a public constructor on 21 to 24; found by reflection (preview). */
    private static void forkTwice(String tag) throws Exception {
        Class<?> type = Class.forName("java.util.concurrent.StructuredTaskScope");
        Object scope;
        try {
            scope = type.getMethod("open").invoke(null);
        } catch (NoSuchMethodException e) {
            scope = type.getConstructor().newInstance();
        }
        try {
            Method fork = type.getMethod("fork", Callable.class);
            fork.invoke(scope, (Callable<String>) () -> span(tag));
            fork.invoke(scope, (Callable<String>) () -> span(tag));
            type.getMethod("join").invoke(scope);
        } finally {
            type.getMethod("close").invoke(scope);
        }
    }

    /** The virtual-thread scheduler, whose workers are the carriers. */
    private static ForkJoinPool scheduler() throws Exception {
        Class<?> type = Class.forName("java.lang.VirtualThread");
        try {
            Method method = type.getDeclaredMethod("defaultScheduler");
            method.setAccessible(true);
            return (ForkJoinPool) method.invoke(null);
        } catch (NoSuchMethodException e) {
            Field field = type.getDeclaredField("DEFAULT_SCHEDULER");
            field.setAccessible(true);
            return (ForkJoinPool) field.get(null);
        }
    }

    /**
     * VirtualThread loads before the agent, so the engine's init thread retransforms it, which on a
     * loaded machine can take longer than the first sleep: waits (60 s at most) until a virtual
     * thread started under a trace sees the trace. The warm-up traces print no ROOT line.
     */
    private static void awaitVirtualThreadsInstrumented() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            long start = System.nanoTime();
            ActiveSpan root = ServerCalls.start("GET", "/warm-up", null, null);
            Boolean[] seen = new Boolean[1];
            try {
                Thread.ofVirtual().start(() -> seen[0] = current()).join();
            } finally {
                ServerCalls.end(root, start, "GET", "/warm-up", 200, null);
            }
            if (Boolean.TRUE.equals(seen[0])) {
                return;
            }
            sleep(200);
        }
        print("WARM-UP virtual threads never saw a trace");
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void join(Thread thread) {
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
