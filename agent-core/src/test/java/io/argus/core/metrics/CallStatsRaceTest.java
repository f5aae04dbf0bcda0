package io.argus.core.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Every interval's snapshot must be one the collector accepts (errors ≤ count, min ≤ max) even when requests
 * are recorded while it is taken, and no request may be lost or counted twice over the intervals. A request
 * that overlaps a snapshot can have its bucket in one interval and its error or extremes in the next; the
 * snapshot carries such an error over to the interval that counts its request.
 */
class CallStatsRaceTest {

    @Test
    void snapshotsTakenDuringRecordingStayConsistentAndLoseNothing() throws Exception {
        CallStats cell = new CallStats("GET", "/fail", 500);
        int requests = 2_000_000;
        AtomicBoolean done = new AtomicBoolean();
        Thread recorder = new Thread(() -> {
            for (int i = 0; i < requests; i++) {
                cell.record(1_000 + (i & 1023), true);
            }
            done.set(true);
        });
        long count = 0;
        long errors = 0;
        long snapshots = 0;
        recorder.start();
        while (!done.get()) {
            count += checked(cell.takeSnapshot());
            errors += lastErrors;
            snapshots++;
        }
        recorder.join();
        count += checked(cell.takeSnapshot());
        errors += lastErrors;
        count += checked(cell.takeSnapshot());
        errors += lastErrors;

        assertThat(snapshots).isPositive();
        assertThat(count).as("requests over all intervals").isEqualTo(requests);
        assertThat(errors).as("errors over all intervals").isEqualTo(requests);
    }

    private long lastErrors;

    private long checked(CallStats.Snapshot s) {
        lastErrors = 0;
        if (s == null) {
            return 0;
        }
        assertThat(s.errors).as("errors of one interval").isBetween(0L, s.count);
        assertThat(s.minNanos).as("min of one interval").isLessThanOrEqualTo(s.maxNanos);
        lastErrors = s.errors;
        return s.count;
    }
}
