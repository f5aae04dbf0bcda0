package io.argus.collector.storage.duckdb;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Queue between the ingest threads and the single writer thread, bounded by the number of rows its
 * tasks carry rather than by the number of tasks. A task is always accepted into an empty queue, so
 * one batch larger than the capacity cannot wedge it.
 *
 * <p>While the writer groups batches into a cycle it sleeps in {@link #awaitRows} instead of waking for every
 * small batch: an ingest thread unparks it only when the queued rows reach what the writer asked for, and a
 * control task (flush, stop, agents) unparks it at once.
 */
final class WriteQueue {
    private final LinkedBlockingQueue<WriteTask> tasks = new LinkedBlockingQueue<>();
    private final AtomicLong pendingRows = new AtomicLong();
    private final long capacityRows;
    /** Queued rows at which an offer wakes the writer sleeping in {@link #awaitRows}; MAX_VALUE when awake. */
    private volatile long wakeAtRows = Long.MAX_VALUE;
    private volatile Thread waiter;

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
                if (now + rows >= wakeAtRows) {
                    wakeWriter();
                }
                return true;
            }
        }
    }

    /** Accepts a control task (flush, stop, agents), ignoring the capacity. */
    void put(WriteTask task) {
        pendingRows.addAndGet(task.rows());
        tasks.add(task);
        wakeWriter();
    }

    /**
     * Writer only: sleeps until at least {@code rows} rows are queued, a control task is put, or
     * {@code deadlineNanos} (of {@link System#nanoTime}) passes. May return early; the caller polls and decides.
     */
    void awaitRows(long rows, long deadlineNanos) {
        if (waiter == null) {
            waiter = Thread.currentThread();
            if (!tasks.isEmpty()) {
                return; // may hold a control task put before the writer was known
            }
        }
        // half the capacity at most: a writer sleeping for a large cycle must not let the queue fill up and
        // push back on ingest
        wakeAtRows = Math.max(1, Math.min(rows, capacityRows / 2));
        // checked after publishing the threshold: an offer either sees it or is seen here; a control task
        // put in between leaves an unpark permit, so the park returns at once
        long left = deadlineNanos - System.nanoTime();
        if (left > 0 && pendingRows.get() < wakeAtRows) {
            LockSupport.parkNanos(this, left);
        }
        wakeAtRows = Long.MAX_VALUE;
    }

    private void wakeWriter() {
        Thread t = waiter;
        if (t != null) {
            LockSupport.unpark(t);
        }
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

    /**
     * Writer only: rows of a failed cycle, taken out of the queue already, count again while they wait to be written
     * again, so that the bound also covers them.
     */
    void hold(long rows) {
        pendingRows.addAndGet(rows);
    }

    /** Writer only: held rows were written (or dropped). */
    void release(long rows) {
        pendingRows.addAndGet(-rows);
    }

    long pendingRows() {
        return pendingRows.get();
    }

    long capacityRows() {
        return capacityRows;
    }
}
