package io.argus.collector.storage.duckdb;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Queue between the ingest threads and the single writer thread, bounded by the number of rows its
 * tasks carry rather than by the number of tasks. A task is always accepted into an empty queue, so
 * one batch larger than the capacity cannot wedge it.
 */
final class WriteQueue {
    private final LinkedBlockingQueue<WriteTask> tasks = new LinkedBlockingQueue<>();
    private final AtomicLong pendingRows = new AtomicLong();
    private final long capacityRows;

    WriteQueue(long capacityRows) {
        this.capacityRows = capacityRows;
    }

    /** Accepts a data task unless that would overflow the capacity. */
    boolean offer(WriteTask task) {
        long rows = task.rows();
        while (true) {
            long now = pendingRows.get();
            if (now > 0 && now + rows > capacityRows) {
                return false;
            }
            if (pendingRows.compareAndSet(now, now + rows)) {
                tasks.add(task);
                return true;
            }
        }
    }

    /** Accepts a control task (flush, stop, agents), ignoring the capacity. */
    void put(WriteTask task) {
        pendingRows.addAndGet(task.rows());
        tasks.add(task);
    }

    WriteTask poll(long timeout, TimeUnit unit) throws InterruptedException {
        return tasks.poll(timeout, unit);
    }

    WriteTask poll() {
        return tasks.poll();
    }

    /** Called by the writer once a task's rows are written (or dropped). */
    void done(WriteTask task) {
        pendingRows.addAndGet(-task.rows());
    }

    long pendingRows() {
        return pendingRows.get();
    }

    long capacityRows() {
        return capacityRows;
    }
}
