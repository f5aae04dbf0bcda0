package io.argus.plugin.tomcat;

/** Tomcat 9.0, oldest release (javax.servlet). */
class Tomcat9OldestIT extends AbstractTomcatIT {

    @Override
    String version() {
        return System.getProperty("argus.test.tomcat9.oldest");
    }

    @Override
    boolean jakarta() {
        return false;
    }
}
