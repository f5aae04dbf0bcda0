package io.argus.distribution.apps;

/**
 * Calls {@link #work} about a thousand times a second until the JVM is stopped, printing {@code CALLS n} every
 * 500 calls: with {@code argus.trace.methods} naming {@code work}, a steady stream of spans.
 */
public final class TracedLoopApp {

    private static volatile long sink;

    public static void main(String[] args) throws InterruptedException {
        for (long calls = 1; ; calls++) {
            sink += work(calls);
            if (calls % 500 == 0) {
                System.out.println("CALLS " + calls);
            }
            Thread.sleep(1);
        }
    }

    static long work(long n) {
        return n * 31 + 7;
    }
}
