package io.argus.bootstrap.handoff;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.IllegalClassFormatException;
import java.security.ProtectionDomain;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The agent's one class file transformer. Until the engine is ready it lets every class through but a
 * probe candidate ({@link ProbeCandidates}, from the plugins' build-time index): the thread loading one
 * waits until the engine is ready, then the class is instrumented as it loads. So no probed class runs
 * without its probes, while the application starts beside the agent. Once ready, every class goes to the
 * engine's transformer.
 *
 * <p>On a restart, the engine can hand the gate its class cache before it is ready ({@link #serveEarly}): a
 * candidate whose woven form is kept there is defined from it at once instead of waiting. Its advice then
 * waits, if it runs that soon, until the agent is ready (the bridge's {@code AgentStatus.awaitSettled}). A
 * candidate that must wait for the engine says so ({@link #awaitDemand}): the start-up thread, which may be
 * putting the engine off while the cache serves every class, then builds it at once.
 *
 * <p>The wait is bounded ({@value #MAX_HOLD_SECONDS} s): past it the class goes through as it is, a line
 * says so, and the engine instruments it once it is ready (a retransformation). The agent's own start-up
 * thread is never held.
 */
public final class StartGate implements ClassFileTransformer {

    public static final int MAX_HOLD_SECONDS = 60;
    /** A class the class cache served after this long counts among those that waited. */
    private static final long WAITED_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    /** Null: holds nothing (the engine is ready, or a start-up mode that does not hold). */
    private final ProbeCandidates candidates;
    /** Notified when the engine is ready or has failed, the class cache arrives, or a class waits for the engine. */
    private final Object changes = new Object();
    private volatile boolean failed;
    /** A candidate has waited for the engine: the class cache could not serve it. */
    private volatile boolean demanded;
    private volatile ClassFileTransformer engine;
    /** The class cache, before the engine is ready: null (a miss) or the class to define; its input for "as it is". */
    private volatile ClassFileTransformer early;
    private volatile Thread startThread;
    private volatile long openedAtMillis;
    private final AtomicInteger held = new AtomicInteger();
    private final AtomicLong heldNanos = new AtomicLong();
    private final AtomicInteger passedUnprobed = new AtomicInteger();
    private volatile String firstPassedUnprobed;

    private StartGate(ProbeCandidates candidates) {
        this.candidates = candidates;
    }

    /** A gate that holds the candidates until {@link #open}. */
    public static StartGate holding(ProbeCandidates candidates) {
        return new StartGate(candidates);
    }

    /** A gate registered only once the engine is ready: it never holds. */
    public static StartGate notHolding() {
        return new StartGate(null);
    }

    /** The thread that builds the engine: never held, whatever it loads. */
    public void startThread(Thread thread) {
        startThread = thread;
    }

    /**
     * Until {@link #open}, candidates go to {@code fromCache} first, and wait only when it returns null. It
     * returns the class file it is given to say "define the class as it is".
     */
    public void serveEarly(ClassFileTransformer fromCache) {
        synchronized (changes) {
            early = fromCache;
            changes.notifyAll();
        }
    }

    /** The engine is ready: every class from now on goes to {@code transformer}, and held classes go on. */
    public void open(ClassFileTransformer transformer) {
        synchronized (changes) {
            engine = transformer;
            openedAtMillis = System.currentTimeMillis();
            changes.notifyAll();
        }
    }

    /** The engine could not start: held classes go on uninstrumented, and nothing is held again. */
    public void fail() {
        synchronized (changes) {
            early = null;
            failed = true;
            changes.notifyAll();
        }
    }

    /**
     * Waits until the engine is ready or has failed (true), the class cache arrives while {@code triedCache}
     * is false, or the deadline passes (false for both of the last two).
     */
    private boolean awaitChange(long deadline, boolean triedCache) {
        synchronized (changes) {
            while (engine == null && !failed && (triedCache || early == null)) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(changes, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return engine != null || failed;
        }
    }

    /**
     * Waits, at most {@code millis}, until a class waits for the engine (at once if one has): true then, false
     * when the time is up. For the start-up thread, while it puts the engine off.
     */
    public boolean awaitDemand(long millis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        synchronized (changes) {
            while (!demanded) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(changes, left);
            }
            return true;
        }
    }

    /** Whether a class has waited for the engine. */
    public boolean isDemanded() {
        return demanded;
    }

    private void demand() {
        if (!demanded) {
            synchronized (changes) {
                demanded = true;
                changes.notifyAll();
            }
        }
    }

    /** Whether it holds any class at all: some enabled plugin has probes (false for a gate made not holding). */
    public boolean holdsAny() {
        return candidates != null && !candidates.isEmpty();
    }

    public boolean isOpen() {
        return engine != null;
    }

    /** When the engine became ready (epoch millis), 0 before. */
    public long openedAtMillis() {
        return openedAtMillis;
    }

    /** Classes whose loading waited for the engine, and for how long in all. */
    public int heldClasses() {
        return held.get();
    }

    public long heldNanos() {
        return heldNanos.get();
    }

    /** Candidates that went through uninstrumented (the wait ran out), and the first of them. */
    public int passedUnprobed() {
        return passedUnprobed.get();
    }

    public String firstPassedUnprobed() {
        return firstPassedUnprobed;
    }

    @Override
    public byte[] transform(ClassLoader loader, String className, Class<?> classBeingRedefined,
                            ProtectionDomain protectionDomain, byte[] classfileBuffer)
            throws IllegalClassFormatException {
        ClassFileTransformer inForce = engine;
        if (inForce != null) {
            return inForce.transform(loader, className, classBeingRedefined, protectionDomain, classfileBuffer);
        }
        if (candidates == null || classBeingRedefined != null || className == null
                || Thread.currentThread() == startThread || !candidates.isCandidate(loader, className)) {
            return null;
        }
        long t0 = System.nanoTime();
        long deadline = t0 + TimeUnit.SECONDS.toNanos(MAX_HOLD_SECONDS);
        boolean settled;
        boolean triedCache = false;
        while (true) {
            ClassFileTransformer fromCache = early;
            if (fromCache != null && !triedCache) {
                triedCache = true;
                byte[] kept = fromCache.transform(loader, className, null, protectionDomain, classfileBuffer);
                if (kept != null) {
                    if (System.nanoTime() - t0 > WAITED_NANOS) {
                        held.incrementAndGet();
                        heldNanos.addAndGet(System.nanoTime() - t0);
                    }
                    return kept == classfileBuffer ? null : kept;
                }
            }
            if (triedCache) {
                demand(); // the class cache missed it: only the engine can define it
            }
            settled = awaitChange(deadline, triedCache);
            if (settled || early == null || triedCache) {
                break;
            }
        }
        held.incrementAndGet();
        heldNanos.addAndGet(System.nanoTime() - t0);
        inForce = engine;
        if (inForce == null) {
            if (settled) {
                return null; // the engine failed: the agent is off
            }
            if (passedUnprobed.getAndIncrement() == 0) {
                firstPassedUnprobed = className;
                System.err.println("[argus] WARN " + className.replace('/', '.') + " waited " + MAX_HOLD_SECONDS
                        + " s for the agent's engine and loads without its probes until the engine instruments it");
            }
            return null;
        }
        return inForce.transform(loader, className, null, protectionDomain, classfileBuffer);
    }
}
