package io.argus.fleet;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** Requests to one URL at a steady rate from one thread, so that the fleet has something to show. */
final class FleetTraffic implements AutoCloseable {
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final URI target;
    private final long intervalNanos;
    private final Thread thread;
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private volatile boolean running = true;

    FleetTraffic(URI target, double requestsPerSecond) {
        this.target = target;
        this.intervalNanos = (long) (1e9 / requestsPerSecond);
        this.thread = new Thread(this::run, "fleet-traffic");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    private void run() {
        long next = System.nanoTime();
        while (running) {
            try {
                HttpResponse<Void> r = http.send(HttpRequest.newBuilder(target).timeout(Duration.ofSeconds(10))
                        .GET().build(), HttpResponse.BodyHandlers.discarding());
                (r.statusCode() == 200 ? sent : failed).incrementAndGet();
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                failed.incrementAndGet();
            }
            next += intervalNanos;
            long wait = next - System.nanoTime();
            if (wait > 0) {
                try {
                    Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                } catch (InterruptedException e) {
                    return;
                }
            } else {
                next = System.nanoTime(); // behind: do not burst to catch up
            }
        }
    }

    long sent() {
        return sent.get();
    }

    long failed() {
        return failed.get();
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.interrupt();
        thread.join(15_000);
    }
}
