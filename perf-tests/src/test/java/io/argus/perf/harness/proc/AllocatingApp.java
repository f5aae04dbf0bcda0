package io.argus.perf.harness.proc;

/** A JVM for the tests to measure: allocates about 100 KB every millisecond until killed. */
public final class AllocatingApp {

    static volatile Object sink;

    public static void main(String[] args) throws InterruptedException {
        System.out.println("allocating");
        while (true) {
            for (int i = 0; i < 100; i++) {
                sink = new byte[1024];
            }
            Thread.sleep(1);
        }
    }
}
