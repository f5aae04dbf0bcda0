package io.argus.plugin.jvm;

/** Allocates a little and sleeps, so GC and heap gauges have something to report. */
public final class IdleApp {
    public static void main(String[] args) throws Exception {
        System.out.println("READY");
        byte[][] keep = new byte[64][];
        for (int i = 0; ; i++) {
            keep[i % keep.length] = new byte[64 * 1024];
            if (i % 1000 == 0) {
                System.gc();
                Thread.sleep(100);
            }
        }
    }
}
