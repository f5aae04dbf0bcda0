package io.argus.plugin.tomcat;

/** Tomcat 9.0, newest release (javax.servlet). */
class Tomcat9IT extends AbstractTomcatIT {

    @Override
    String version() {
        return System.getProperty("argus.test.tomcat9");
    }

    @Override
    boolean jakarta() {
        return false;
    }
}
