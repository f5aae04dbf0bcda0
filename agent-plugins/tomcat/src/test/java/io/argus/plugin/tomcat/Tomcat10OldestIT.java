package io.argus.plugin.tomcat;

/** Tomcat 10.1, oldest release (jakarta.servlet). */
class Tomcat10OldestIT extends AbstractTomcatIT {

    @Override
    String version() {
        return System.getProperty("argus.test.tomcat10.oldest");
    }

    @Override
    boolean jakarta() {
        return true;
    }
}
