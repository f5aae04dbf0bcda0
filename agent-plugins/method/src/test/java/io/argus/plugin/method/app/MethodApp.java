package io.argus.plugin.method.app;

/**
 * Runs under the agent in a forked JVM. Each call below is made with no current span, so a traced
 * method called from here is the root of its own trace. Prints DONE when everything ran, then
 * idles until the test stops it.
 */
public final class MethodApp {

    public static void main(String[] args) throws Exception {
        System.out.println("READY");
        Shop shop = new Shop();
        System.out.println("checkout=" + shop.checkout(3));

        Inventory inventory = new Inventory();
        inventory.reserve(2);
        inventory.release(1);
        System.out.println("instances=" + Inventory.count());

        try {
            shop.fail();
            System.out.println("NOT THROWN");
        } catch (IllegalStateException e) {
            StackTraceElement top = e.getStackTrace()[0];
            System.out.println("CAUGHT " + e.getClass().getName() + " message=" + e.getMessage()
                    + " same=" + (e == Shop.lastThrown) + " top=" + top.getClassName() + "." + top.getMethodName());
        }
        System.out.println("DONE");
        Thread.sleep(Long.MAX_VALUE);
    }
}
