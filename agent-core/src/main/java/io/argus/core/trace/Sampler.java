package io.argus.core.trace;

import java.util.concurrent.ThreadLocalRandom;

/** Decides at the root of a trace, from {@code argus.tracing.samplingRate} (0 to 100 percent). */
public final class Sampler {

    private static final long ALWAYS = Long.MAX_VALUE;
    private static final long NEVER = 0;

    /** A root is sampled when a uniform random 62-bit value falls below this. */
    private final long threshold;

    public Sampler(double percent) {
        if (percent <= 0) {
            threshold = NEVER;
        } else if (percent >= 100) {
            threshold = ALWAYS;
        } else {
            threshold = (long) (percent / 100.0 * (1L << 62));
        }
    }

    public boolean sampleRoot() {
        if (threshold == NEVER) {
            return false;
        }
        return threshold == ALWAYS || (ThreadLocalRandom.current().nextLong() >>> 2) < threshold;
    }
}
