package io.argus.bootstrap;

import io.argus.bootstrap.handoff.AgentHandoff;

import java.io.File;
import java.lang.instrument.Instrumentation;

/**
 * The start-up thread ({@code argus-start}). Started while premain still reads the plugins' index, it makes
 * the agent's class loader and, in the parallel start-up, defines the bridge in the boot loader; then it
 * waits for premain's {@link AgentHandoff} and hands over to the core. That work is done beside premain
 * instead of after it, so on a restart the class cache serves the start gate sooner (a class the gate holds
 * for it, such as Jetty's {@code Server}, waits some 10 ms less).
 */
final class CoreStarter implements Runnable {

    private final AgentHome home;
    private final Instrumentation inst;
    /** Null: nothing to prepare beyond the loader (the deferred start-up waits for a spare core first). */
    private final File bridgeJar;
    private final Thread thread;
    private AgentHandoff handoff;
    private boolean decided;

    private CoreStarter(AgentHome home, Instrumentation inst, File bridgeJar) {
        this.home = home;
        this.inst = inst;
        this.bridgeJar = bridgeJar;
        this.thread = new Thread(this, "argus-start");
        thread.setDaemon(true);
    }

    /**
     * Starts the thread; it prepares, then waits for {@link #hand} or {@link #cancel}.
     *
     * @param bridgeJar the bridge to define first, or null to make nothing but the class loader
     */
    static CoreStarter start(AgentHome home, Instrumentation inst, File bridgeJar) {
        CoreStarter starter = new CoreStarter(home, inst, bridgeJar);
        starter.thread.start();
        return starter;
    }

    Thread thread() {
        return thread;
    }

    /** Premain is done: the thread starts the agent with {@code handoff}. */
    synchronized void hand(AgentHandoff handoff) {
        this.handoff = handoff;
        decided = true;
        notifyAll();
    }

    /** Premain starts the agent itself, or not at all: the thread stops, and this returns once it has. */
    void cancel() {
        synchronized (this) {
            decided = true;
            notifyAll();
        }
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private synchronized AgentHandoff awaitHandoff() throws InterruptedException {
        while (!decided) {
            wait();
        }
        return handoff;
    }

    @Override
    public void run() {
        Class<?> coreEntry = null;
        Throwable failure = null;
        try {
            coreEntry = AgentMain.coreEntry(home);
            if (bridgeJar != null) {
                coreEntry.getMethod("prepare", Instrumentation.class, File.class).invoke(null, inst, bridgeJar);
            }
        } catch (Throwable t) {
            failure = t;
        }
        AgentHandoff handed;
        try {
            handed = awaitHandoff();
        } catch (InterruptedException e) {
            return;
        }
        if (handed == null) {
            return;
        }
        try {
            if (failure != null) {
                throw failure;
            }
            AgentMain.begin(handed, coreEntry);
        } catch (Throwable t) {
            handed.gate().fail();
            AgentMain.failed(t);
        }
    }
}
