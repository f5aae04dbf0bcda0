package io.argus.plugin.method.app;

/** Traced in the tests: a call tree of depth two, and a method that throws. */
public final class Shop {

    static volatile IllegalStateException lastThrown;

    private final Inventory inventory = new Inventory();

    public int checkout(int items) {
        int total = price(items);
        inventory.reserve(items);
        return total;
    }

    int price(int items) {
        return items * 7;
    }

    public void fail() {
        IllegalStateException e = new IllegalStateException("boom");
        lastThrown = e;
        throw e;
    }
}
