package io.argus.plugin.method.app;

/** Traced with {@code #*}: a constructor, a lambda, static and private methods. */
public final class Inventory {

    private static int instances;
    private int reserved;

    public Inventory() {
        instances++;
    }

    public void reserve(int items) {
        check(items);
        Runnable add = () -> reserved += items;
        add.run();
    }

    public void release(int items) {
        reserved -= items;
    }

    private void check(int items) {
        if (items < 0) {
            throw new IllegalArgumentException("negative");
        }
    }

    public static int count() {
        return instances;
    }
}
