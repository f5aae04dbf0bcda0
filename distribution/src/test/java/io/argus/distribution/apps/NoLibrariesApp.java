package io.argus.distribution.apps;

import com.example.absent.LookalikeConnection;
import com.example.absent.LookalikeStatement;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * An application with none of the instrumented libraries on its class path: plain JDK work
 * (executors, fork/join, threads) plus two classes of its own whose names look like JDBC types to
 * the name-hinted probes ({@link LookalikeStatement}, {@link LookalikeConnection}), then {@code DONE}.
 * {@link #work} can be traced as a method, which makes it the first trace.
 */
public final class NoLibrariesApp {

    public static void main(String[] args) throws Exception {
        work();
        System.out.println("DONE");
        Thread.sleep(Long.parseLong(System.getProperty("stay.ms", "0")));
    }

    /** Traced by the method plugin in one test: then the first trace begins here. */
    public static void work() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        pool.submit(new LookalikeStatement()).get();
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
        scheduler.schedule(() -> { }, 1, TimeUnit.MILLISECONDS).get();
        ForkJoinPool.commonPool().submit(() -> 1).get();
        CompletableFuture.supplyAsync(() -> new LookalikeConnection()).get();
        Thread thread = new Thread(() -> { });
        thread.start();
        thread.join();
        pool.shutdown();
        scheduler.shutdown();
    }
}
