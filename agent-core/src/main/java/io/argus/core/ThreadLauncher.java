package io.argus.core;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * Starts the agent's long-lived threads (the exporter) at the application's priority. A Linux thread
 * inherits its creator's nice value, and the start-up thread lowers its own; so the start-up thread
 * creates this one first, while it still has the application's priority, and later hands it the thread
 * starts to run. It ends when the start-up thread closes it.
 */
final class ThreadLauncher implements Executor {

    private static final Runnable STOP = new Runnable() {
        @Override
        public void run() {
        }
    };

    private final BlockingQueue<Runnable> tasks = new LinkedBlockingQueue<Runnable>();

    static ThreadLauncher start() {
        final ThreadLauncher launcher = new ThreadLauncher();
        Thread thread = new Thread(new Runnable() {
            @Override
            public void run() {
                launcher.runUntilClosed();
            }
        }, "argus-launcher");
        thread.setDaemon(true);
        thread.start();
        return launcher;
    }

    @Override
    public void execute(Runnable start) {
        tasks.add(start);
    }

    void close() {
        tasks.add(STOP);
    }

    private void runUntilClosed() {
        while (true) {
            Runnable next;
            try {
                next = tasks.take();
            } catch (InterruptedException e) {
                return;
            }
            if (next == STOP) {
                return;
            }
            try {
                next.run();
            } catch (Throwable t) {
                AgentLog.error("the agent could not start one of its threads", t);
            }
        }
    }
}
