package io.argus.perf.harness.run;

import io.argus.perf.harness.http.RequestSpec;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * When a process was first observed, as a user sees it: from its first answer on, it keeps probing
 * the process's readiness endpoint, each probe with a sampled {@code traceparent} of its own, until
 * the run's collector has stored the trace of one of them; the process was observed from the
 * sending of the earliest stored probe. Probing stops at the bound ({@code timeout} after the first
 * answer), and the process counts as never observed.
 *
 * <p>Probes go out every {@value #MIN_INTERVAL_MILLIS} ms at first, then at 2% of the time since the
 * first answer, so that the observed time is resolved to a few percent while a long wait (the
 * deferred start-up on a busy machine) sends only a few hundred. Every
 * {@value #CHECK_MILLIS} ms it asks the collector for the newest probe sent at least
 * {@value #EXPORT_LAG_MILLIS} ms before (both agents export a span within about a second of its
 * end), or while there is none that old for the first answer; once one is found it looks through
 * the earlier probes, first to last, for the earliest stored one. Those were sent before the one found, so an agent that traced them has exported
 * them by then.
 */
public final class StartObserver {

    static final long MIN_INTERVAL_MILLIS = 10;
    static final double RELATIVE_INTERVAL = 0.02;
    static final long CHECK_MILLIS = 200;
    static final long EXPORT_LAG_MILLIS = 1200;
    static final int PROBE_TIMEOUT_MILLIS = 5000;

    /** Whether the collector stored a trace. */
    @FunctionalInterface
    public interface TraceStore {
        boolean stored(String traceId) throws IOException, InterruptedException;
    }

    /**
     * @param observed       the earliest stored probe, or null when none was stored within the bound
     * @param probes         every probe from the first answer on, the first answer's included, in order
     * @param unobserved     answered probes before the earliest stored one (all answered ones when never observed)
     * @param stoppedNanos   when probing stopped
     * @param note           why probing stopped early (the process exited, the collector failed), or null
     */
    public record Observation(ProbeRequest observed, List<ProbeRequest> probes, int unobserved, long stoppedNanos,
                              String note) {
    }

    private final TraceStore store;
    private final Duration timeout;

    public StartObserver(TraceStore store, Duration timeout) {
        this.store = store;
        this.timeout = timeout;
    }

    /** The collector's {@code GET /api/traces/{traceId}}: 200 stored, 404 not (yet). */
    public static TraceStore of(CollectorProcess collector) {
        return collector::hasTrace;
    }

    /**
     * Probes {@code readiness} from its first answer, {@code first}, until observed or the bound.
     *
     * @param alive false once the process exited: probing stops
     */
    public Observation observe(RequestSpec readiness, ProbeRequest first, BooleanSupplier alive)
            throws InterruptedException {
        List<ProbeRequest> probes = new ArrayList<>();
        probes.add(first);
        long start = first.sentNanos();
        long deadline = start + timeout.toNanos();
        long nextCheck = System.nanoTime() + CHECK_MILLIS * 1_000_000;
        String note = null;
        int found = -1;
        try {
            while (true) {
                long now = System.nanoTime();
                if (now >= nextCheck) {
                    found = check(probes, now);
                    if (found >= 0) {
                        break;
                    }
                    nextCheck = now + CHECK_MILLIS * 1_000_000;
                }
                if (now > deadline) {
                    // the last probes may have landed meanwhile: look through all of them once more
                    found = newestStored(probes);
                    break;
                }
                if (!alive.getAsBoolean()) {
                    note = "the process exited";
                    break;
                }
                long interval = Math.max(MIN_INTERVAL_MILLIS * 1_000_000, (long) ((now - start) * RELATIVE_INTERVAL));
                long next = probes.get(probes.size() - 1).sentNanos() + interval;
                long sleep = Math.min(next, nextCheck) - System.nanoTime();
                if (sleep > 0) {
                    Thread.sleep(sleep / 1_000_000, (int) (sleep % 1_000_000));
                }
                if (System.nanoTime() >= next) {
                    probes.add(ProbeRequest.send(readiness, PROBE_TIMEOUT_MILLIS));
                }
            }
            if (found >= 0) {
                found = earliestStored(probes, found);
            }
        } catch (IOException e) {
            note = "the collector's trace query failed: " + e.getMessage();
        }
        long stopped = System.nanoTime();
        ProbeRequest observed = found >= 0 ? probes.get(found) : null;
        int unobserved = 0;
        for (int i = 0; i < (found >= 0 ? found : probes.size()); i++) {
            if (probes.get(i).answered()) {
                unobserved++;
            }
        }
        return new Observation(observed, probes, unobserved, stopped, note);
    }

    /**
     * The index of the newest answered probe sent at least the export lag ago, if stored; within the first lag, the
     * first answer (an agent that observes from the first request has it exported within a second); else -1.
     */
    private int check(List<ProbeRequest> probes, long now) throws IOException, InterruptedException {
        long sentBefore = now - EXPORT_LAG_MILLIS * 1_000_000;
        for (int i = probes.size() - 1; i >= 0; i--) {
            ProbeRequest p = probes.get(i);
            if (p.answered() && p.sentNanos() <= sentBefore) {
                return store.stored(p.traceId()) ? i : -1;
            }
        }
        return store.stored(probes.get(0).traceId()) ? 0 : -1;
    }

    /** The newest answered probe that is stored, looking back from the last; -1 if none. */
    private int newestStored(List<ProbeRequest> probes) throws IOException, InterruptedException {
        for (int i = probes.size() - 1; i >= 0; i--) {
            if (probes.get(i).answered() && store.stored(probes.get(i).traceId())) {
                return i;
            }
        }
        return -1;
    }

    /** The first stored probe up to {@code known}, which is stored. */
    private int earliestStored(List<ProbeRequest> probes, int known) throws IOException, InterruptedException {
        for (int i = 0; i < known; i++) {
            if (probes.get(i).answered() && store.stored(probes.get(i).traceId())) {
                return i;
            }
        }
        return known;
    }
}
