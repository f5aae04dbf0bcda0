package io.argus.distribution.apps;

/** Tries to load each class named on the command line and prints whether it could. */
public final class ClassVisibilityApp {

    public static void main(String[] args) throws Exception {
        ClassLoader loader = ClassVisibilityApp.class.getClassLoader();
        for (String name : args) {
            String result;
            try {
                Class.forName(name, false, loader);
                result = "VISIBLE";
            } catch (ClassNotFoundException | LinkageError e) {
                result = "HIDDEN";
            }
            System.out.println("CLASS " + name + " " + result);
        }
        System.out.println("DONE");
        Thread.sleep(Long.parseLong(System.getProperty("stay.ms", "0")));
    }
}
